// The baseline of the catalog benchmark: a bare node:http server on 127.0.0.1 answering each path
// with bytes captured once from the real server, so the difference is the framework and database.
//   node bench/bare-server.mjs <routes.json>   (prints "listening <port>")
// routes.json: { "<path with query>": { "contentType": "...", "body": "<base64>" } }
import fs from 'node:fs';
import http from 'node:http';

const file = process.argv[2];
if (!file) throw new Error('usage: node bench/bare-server.mjs <routes.json>');
const routes = new Map(
  Object.entries(JSON.parse(fs.readFileSync(file, 'utf8'))).map(([path, route]) => [
    path,
    { contentType: route.contentType, body: Buffer.from(route.body, 'base64') },
  ]),
);

const server = http.createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (!route) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  response.writeHead(200, { 'content-type': route.contentType, 'content-length': route.body.length });
  response.end(route.body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
