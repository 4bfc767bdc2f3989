/// What an event loop knows of its current turn (see
/// `EventLoop+EndOfTurn.swift`): the turn number the read and line budgets
/// count by, the work that finishes at the turn's end, and the readers a
/// budget paused until the next turn.
///
/// A struct behind a pointer that is never reassigned
/// (``EventLoop/turnState``), like ``LoopCounters``: the code that runs on
/// every read, write and turn reads and writes it without the exclusivity
/// checks a class's stored properties cost.
struct TurnState {
    /// The loop turn: counted up each time the loop is about to wait.
    var turn = 0
    /// ``EventLoop/readBudgetPerTurn``, kept here beside the turn that
    /// every read compares it with.
    var readBudgetPerTurn = 1 << 20
    /// What finishes at the end of the current turn.
    var endOfTurnWork: [any EndOfTurnWork] = []
    /// An empty array with capacity, swapped with ``endOfTurnWork`` when
    /// the turn ends, so that ending a turn allocates nothing.
    var spareWork: [any EndOfTurnWork] = []
    /// Readers a budget paused, to read again next turn.
    var pausedByBudget: [any TurnResumable] = []
    /// Whether the loop's turn handles run (see
    /// ``EventLoop/startTurnHandles()``); without them end-of-turn work is
    /// done at once.
    var watchesTurns = false
    /// Whether something observes the turns' ends
    /// (``EventLoop/observeTurnEnds(_:)``): then every turn enters the loop.
    var hasTurnObservers = false
    /// Whether to poll without waiting a while after each input
    /// (``EventLoop/busyPolling``); off (a window of 0) by default.
    var busyPoll = BusyPoll()
}
