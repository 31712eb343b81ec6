// A small stdio MCP server for the bridge tests, with a mode per behaviour under test:
//   good [--grandchild] [--modern]  a well-behaved server (tools, prompts, resources, list changes)
//   silent                          reads its input and never answers
//   flood                           writes lines that are not JSON as fast as it can
//   huge                            answers initialize with one 20 MiB line
//   malformed                       answers every request with broken JSON
//   tools=N                         lists N tools
//   bomb                            lists tools with schemas no client should have to take
//   abyss                           answers tools/list with a schema nested 5000 levels
// Environment: CANCEL_MARKER names a file written when a call is cancelled; API_TOKEN is what the
// tools leak, reads and die, the prompt greet (who: "secret") and the note note://token give away.
// BRIDGE_MARKER names a file it appends a line to when it starts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

const mode = process.argv[2] ?? 'good';
const grandchild = process.argv.includes('--grandchild');
const modern = process.argv.includes('--modern');
const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');

if (grandchild) {
  // A process of its own that outlives nothing: it must be killed with its parent's tree.
  spawn('sleep', ['600'], { stdio: 'ignore' });
}
if (process.env.BRIDGE_MARKER) fs.appendFileSync(process.env.BRIDGE_MARKER, `started ${process.pid}\n`);
process.stderr.write(`fixture-server ${mode} starting; token=${process.env.API_TOKEN ?? ''}\n`);

if (mode === 'flood') {
  const line = 'this is not json '.repeat(20) + '\n';
  const write = () => { while (process.stdout.write(line)) { /* keep going */ } };
  process.stdout.on('drain', write);
  write();
}

let extraTools = 0;
const pending = new Map();

function tools() {
  if (mode.startsWith('tools=')) {
    const n = Number(mode.slice(6));
    return Array.from({ length: n }, (_, i) => ({
      name: `t${i}`, description: `tool ${i}`, inputSchema: { type: 'object' } }));
  }
  if (mode === 'bomb') {
    let deep = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { x: deep } };
    return [
      { name: 'deep', description: 'nested 200 levels', inputSchema: deep },
      { name: 'huge', description: 'a 300 KiB schema', inputSchema: { type: 'object',
        properties: { v: { enum: Array.from({ length: 30000 }, (_, i) => `value-${i}`) } } } },
      { name: 'not_object', description: 'a string schema', inputSchema: { type: 'string' } },
      { name: 'has space', description: 'a name MCP does not allow', inputSchema: { type: 'object' } },
      { name: 'ok', description: 'x'.repeat(5000) + '\u0007', inputSchema: { type: 'object' } },
    ];
  }
  const list = [
    { name: 'echo', description: 'Echoes text', inputSchema: { type: 'object',
      properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true, title: 'Echo' } },
    { name: 'slow', description: 'Waits until cancelled, reporting progress',
      inputSchema: { type: 'object' } },
    { name: 'token', description: 'Says the token it was given', inputSchema: { type: 'object' } },
    { name: 'fail', description: 'Reports an error', inputSchema: { type: 'object' } },
    { name: 'grow', description: 'Adds a tool and says so', inputSchema: { type: 'object' } },
    { name: 'leak', description: 'Logs its token and fails with it', inputSchema: { type: 'object' } },
    { name: 'reads', description: 'Answers with a JSON-RPC error naming its token',
      inputSchema: { type: 'object' } },
    { name: 'die', description: 'Writes its token to stderr and exits', inputSchema: { type: 'object' } },
    { name: 'big', description: 'Answers with 100 text items of 80,000 characters',
      inputSchema: { type: 'object' } },
  ];
  for (let i = 0; i < extraTools; i++) {
    list.push({ name: `grown_${i}`, description: 'added at run time', inputSchema: { type: 'object' } });
  }
  return list;
}

function result(id, r) {
  out({ jsonrpc: '2.0', id, result: modern ? { resultType: 'complete', ...r } : r });
}

function call(id, params) {
  const name = params.name;
  const token = params._meta?.progressToken;
  if (name === 'echo') return result(id, { content: [{ type: 'text', text: `echo: ${params.arguments.text}` }] });
  if (name === 'token') return result(id, { content: [{ type: 'text', text: `token is ${process.env.API_TOKEN}` }] });
  if (name === 'leak') {
    out({ jsonrpc: '2.0', method: 'notifications/message',
      params: { level: 'error', data: `logging the token ${process.env.API_TOKEN}` } });
    return result(id, { content: [{ type: 'text', text: `failed with token ${process.env.API_TOKEN}` }],
      structuredContent: { token: process.env.API_TOKEN }, isError: true });
  }
  if (name === 'reads') {
    return out({ jsonrpc: '2.0', id, error: { code: -32000, message: `no access with ${process.env.API_TOKEN}` } });
  }
  if (name === 'die') {
    process.stderr.write(`dying; token=${process.env.API_TOKEN}\n`, () => process.exit(3));
    return;
  }
  if (name === 'big') {
    return result(id, { content: Array.from({ length: 100 }, (_, i) => ({ type: 'text',
      text: String(i % 10).repeat(80000) })) });
  }
  if (name === 'fail') return result(id, { content: [{ type: 'text', text: 'it failed on purpose' }], isError: true });
  if (name === 'grow') {
    extraTools++;
    result(id, { content: [{ type: 'text', text: `now ${extraTools} grown tools` }] });
    out({ jsonrpc: '2.0', method: 'notifications/tools/list_changed',
      params: modern && listenId !== undefined ? { _meta: { 'io.modelcontextprotocol/subscriptionId': listenId } } : {} });
    return;
  }
  if (name === 'slow') {
    let step = 0;
    out({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'slow started' } });
    const timer = setInterval(() => {
      step++;
      if (token !== undefined) {
        out({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: step } });
      }
    }, 100);
    pending.set(id, timer);
    return;
  }
  return result(id, { content: [{ type: 'text', text: `called ${name}` }] });
}

let listenId;
function handle(m) {
  if (m.method === 'notifications/cancelled') {
    const timer = pending.get(m.params?.requestId);
    if (timer) {
      clearInterval(timer);
      pending.delete(m.params.requestId);
      if (process.env.CANCEL_MARKER) fs.writeFileSync(process.env.CANCEL_MARKER, String(m.params.requestId));
    }
    return;
  }
  if (m.id === undefined) return;
  if (mode === 'silent') return;
  if (mode === 'malformed') { process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":\n'); return; }
  if (mode === 'huge') { process.stdout.write('{"x":"' + 'y'.repeat(20 * 1024 * 1024)); return; }
  switch (m.method) {
    case 'server/discover':
      if (!modern) return out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
      return result(m.id, { supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-modern', version: '1' } } });
    case 'initialize':
      return result(m.id, { protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, logging: {} },
        serverInfo: { name: 'fixture', version: '1' } });
    case 'subscriptions/listen':
      listenId = m.id;
      return out({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': m.id }, notifications: m.params.notifications } });
    case 'logging/setLevel': return result(m.id, {});
    case 'tools/list':
      if (mode === 'abyss') {
        // Written by hand: deeper than any JSON reader should follow.
        return process.stdout.write(`{"jsonrpc":"2.0","id":${m.id},"result":{"tools":[{"name":"a",`
          + `"inputSchema":${'{"type":"object","properties":{"x":'.repeat(5000)}{}${'}}'.repeat(5000)}}]}}\n`);
      }
      return result(m.id, { tools: tools() });
    case 'tools/call':
      if (modern && m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== '2026-07-28') {
        return out({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'missing request metadata' } });
      }
      return call(m.id, m.params);
    case 'prompts/list':
      return result(m.id, { prompts: [{ name: 'greet', description: 'Greets someone',
        arguments: [{ name: 'who', required: true }] }] });
    case 'prompts/get':
      return result(m.id, { messages: [{ role: 'user',
        content: { type: 'text', text: m.params.arguments?.who === 'secret'
          ? `Say hello to ${process.env.API_TOKEN}.` : `Say hello to ${m.params.arguments?.who}.` } }] });
    case 'resources/list':
      return result(m.id, { resources: [{ uri: 'note://hello', name: 'hello', mimeType: 'text/plain' }] });
    case 'resources/templates/list':
      return result(m.id, { resourceTemplates: [{ uriTemplate: 'note://{name}', name: 'note' }] });
    case 'resources/read':
      return result(m.id, { contents: [{ uri: m.params.uri, mimeType: 'text/plain',
        text: m.params.uri === 'note://token' ? `the token ${process.env.API_TOKEN}` : `the note ${m.params.uri}` }] });
    default:
      return out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  handle(JSON.parse(line));
}).on('close', () => process.stdout.write('', () => process.exit(0)));
