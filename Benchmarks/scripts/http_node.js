// The Node.js contender of the HTTP benchmark (make bench-http,
// scripts/http_bench.py): Node's `http` module (libuv + llhttp), the same
// two routes as HTTPCompose. `GET /` answers the 13 bytes "Hello, World!";
// `POST /echo` answers its body (collected, up to 1 MiB, else 413).
//
// Usage: node http_node.js [PORT]  (0 or none: any free port). Listens on
// 127.0.0.1, prints "listening PORT", runs until SIGTERM.
'use strict';
const http = require('http');

const hello = Buffer.from('Hello, World!');
const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/') {
    response.writeHead(200, { 'Content-Length': hello.length });
    response.end(hello);
  } else if (request.method === 'POST' && request.url === '/echo') {
    const chunks = [];
    let length = 0;
    request.on('data', (chunk) => {
      length += chunk.length;
      if (length <= 1 << 20) chunks.push(chunk);
    });
    request.on('end', () => {
      if (length > 1 << 20) {
        response.writeHead(413, { 'Content-Length': 0, Connection: 'close' });
        response.end();
        return;
      }
      const body = Buffer.concat(chunks, length);
      response.writeHead(200, { 'Content-Length': body.length });
      response.end(body);
    });
  } else {
    response.writeHead(404, { 'Content-Length': 0 });
    response.end();
  }
});
server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
