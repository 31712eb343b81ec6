// The TypeScript SDK (1.x) peer server for the benchmarks: an `echo` tool and, with --tools N,
// N generated tools of the same shape as the benchmark skill's (`tool_0000` ...), written the way
// the SDK's documentation writes a server (McpServer, zod input schemas, one server and transport
// per Streamable HTTP session, the transport's default responses).
//
//   node ts-sdk-server.mjs --sdk DIR (--stdio | --http --port PORT) [--tools N]
//
// DIR is the installed SDK folder (`node interop/interop.mjs dir sdk@1`). Over HTTP it listens on
// 127.0.0.1 only and prints `listening PORT` on stderr; it exits when stdin closes or on SIGTERM.

import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const sdkDir = opt('--sdk');
if (!sdkDir) {
  console.error('--sdk DIR is required');
  process.exit(2);
}
const modules = path.join(sdkDir, 'node_modules');
const load = (rel) => import(pathToFileURL(path.join(modules, rel)).href);
const { McpServer } = await load('@modelcontextprotocol/sdk/dist/esm/server/mcp.js');
const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/dist/esm/server/stdio.js');
const { StreamableHTTPServerTransport } = await load(
  '@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js'
);
const { isInitializeRequest } = await load('@modelcontextprotocol/sdk/dist/esm/types.js');
const z = await load('zod/index.js');

const tools = Number(opt('--tools', '0'));

function newServer() {
  const server = new McpServer({ name: 'ts-sdk-peer', version: '1' });
  const schema = { text: z.string().optional() };
  const echo = async ({ text }) => ({ content: [{ type: 'text', text: text ?? '' }] });
  server.registerTool('echo', { description: 'Echo', inputSchema: schema }, echo);
  for (let i = 0; i < tools; i++) {
    const name = 'tool_' + String(i).padStart(4, '0');
    server.registerTool(
      name,
      { description: `Generated tool ${i} of the listing benchmark`, inputSchema: schema },
      echo
    );
  }
  return server;
}

if (args.includes('--stdio')) {
  await newServer().connect(new StdioServerTransport());
} else {
  const port = Number(opt('--port', '0'));
  const transports = new Map();
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const httpServer = http.createServer(async (req, res) => {
    try {
      const sessionId = req.headers['mcp-session-id'];
      let body;
      if (req.method === 'POST') {
        body = JSON.parse(await readBody(req));
      }
      let transport = sessionId ? transports.get(sessionId) : undefined;
      if (!transport && req.method === 'POST' && !sessionId && isInitializeRequest(body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        await newServer().connect(transport);
      }
      if (!transport) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"no valid session"},"id":null}');
        return;
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) {
        res.writeHead(500);
      }
      res.end(String(e));
    }
  });
  httpServer.listen(port, '127.0.0.1', () => {
    console.error('listening ' + httpServer.address().port);
  });
  const stop = () => {
    httpServer.closeAllConnections?.();
    httpServer.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}
