#!/usr/bin/env node
// Dynamic tools (register_tool, deregister_tool, list_dynamic_tools) driven through the official
// TypeScript SDK client by two callers at once, for interop tests:
//
//   A: load_skill (2025 era) -> register_tool -> call it -> list_dynamic_tools -> tools/list
//   B: list_dynamic_tools -> call A's tool -> deregister_tool A's tool
//   A: call it again -> deregister_tool -> list_dynamic_tools -> call it once more
//
// A 1.x client (@modelcontextprotocol/sdk) speaks the 2025 era and calls the tool by its name; a
// 2.x client (@modelcontextprotocol/client) speaks 2026-07-28 and calls it through call_tool.
//
//   node dynamic-tools-client.mjs --sdk 1|2 --sdk-dir DIR --url URL --token-a A --token-b B
//     --skill NAME --target QUALIFIED_TOOL [--preset JSON] [--args JSON] [--timeout MS]
//
// It prints one JSON object on stdout and exits 0 when every step ran (the object records what
// each answered, for the test to judge), 1 when one threw, 2 on bad usage.

import { UsageError, loadSdk, runClient } from './client-kit.mjs';

function parseOptions(argv) {
  const o = {
    sdk: null, sdkDir: null, url: null, tokenA: null, tokenB: null, skill: null, target: null,
    preset: {}, args: {}, timeout: 60000,
  };
  const json = (flag, text) => {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${flag} takes JSON: ${e.message}`);
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) {
        throw new UsageError(`${flag} needs a value`);
      }
      return argv[++i];
    };
    switch (flag) {
      case '--sdk': o.sdk = value(); break;
      case '--sdk-dir': o.sdkDir = value(); break;
      case '--url': o.url = value(); break;
      case '--token-a': o.tokenA = value(); break;
      case '--token-b': o.tokenB = value(); break;
      case '--skill': o.skill = value(); break;
      case '--target': o.target = value(); break;
      case '--preset': o.preset = json(flag, value()); break;
      case '--args': o.args = json(flag, value()); break;
      case '--timeout': o.timeout = Number(value()); break;
      default: throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (o.sdk !== '1' && o.sdk !== '2') {
    throw new UsageError('--sdk 1 or --sdk 2 is required');
  }
  for (const [flag, v] of [['--sdk-dir', o.sdkDir], ['--url', o.url], ['--token-a', o.tokenA],
    ['--token-b', o.tokenB], ['--skill', o.skill], ['--target', o.target]]) {
    if (!v) {
      throw new UsageError(`${flag} is required`);
    }
  }
  return o;
}

async function connect(sdk, o, token, options) {
  const transport = new sdk.StreamableHTTPClientTransport(new URL(o.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const clientOptions = { capabilities: {} };
  if (o.sdk === '2') {
    clientOptions.versionNegotiation = { mode: 'auto' };
  }
  const client = new sdk.Client({ name: 'skillport-dynamic-tools-client', version: '1.0.0' },
    clientOptions);
  await client.connect(transport, options);
  return client;
}

async function run(o, summary) {
  const sdk = await loadSdk(o.sdk, o.sdkDir);
  summary.sdk = `${sdk.name}@${sdk.version}`;
  const options = { timeout: o.timeout };
  summary.step = 'connect';
  const a = await connect(sdk, o, o.tokenA, options);
  const b = await connect(sdk, o, o.tokenB, options);
  summary.protocolVersion = typeof a.getNegotiatedProtocolVersion === 'function'
    ? a.getNegotiatedProtocolVersion() ?? null : null;
  const modern = summary.protocolVersion === '2026-07-28';
  summary.era = modern ? 'modern' : 'legacy';

  const call = async (client, name, args) => (o.sdk === '1'
    ? client.callTool({ name, arguments: args }, undefined, options)
    : client.callTool({ name, arguments: args }, options));
  // What a call came to: its result, or the protocol error it raised.
  const outcome = async (client, name, args) => {
    try {
      const r = await call(client, name, args);
      const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
      return { isError: Boolean(r.isError), structured: r.structuredContent ?? null, text };
    } catch (e) {
      return { protocolError: e?.message ?? String(e) };
    }
  };
  // A dynamic tool is called by its name in the 2025 era, through call_tool in 2026-07-28.
  const callDynamic = (client, name, args) => (modern
    ? outcome(client, 'call_tool', { name, arguments: args })
    : outcome(client, name, args));
  const listAll = async (client) => {
    const names = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return names;
  };

  summary.step = 'tools/list before';
  const before = await listAll(a);
  if (!modern) {
    summary.step = 'load_skill';
    summary.loaded = await outcome(a, 'load_skill', { skill_name: o.skill });
  }
  const listedBeforeRegister = await listAll(a);

  summary.step = 'register_tool';
  summary.register = await outcome(a, 'register_tool', {
    tool_spec: {
      name: 'greet_preset',
      description: 'Greets with preset arguments',
      tool: o.target,
      arguments: o.preset,
      parameters: { punct: { type: 'string' } },
    },
  });
  const name = summary.register.structured?.tool_name;
  if (!name) {
    throw new Error(`register_tool gave no tool_name: ${JSON.stringify(summary.register)}`);
  }
  summary.toolName = name;

  summary.step = 'A calls';
  summary.aCall = await callDynamic(a, name, o.args);
  summary.aBadCall = await callDynamic(a, name, { punct: 7 });
  summary.aList = await outcome(a, 'list_dynamic_tools', {});
  summary.step = 'tools/list after register';
  const after = await listAll(a);
  summary.listed = { before: before.length, after: after.length, dynamicListed: after.includes(name),
    unchanged: JSON.stringify(after) === JSON.stringify(listedBeforeRegister) };
  summary.coreListed = ['register_tool', 'deregister_tool', 'list_dynamic_tools']
    .filter((t) => after.includes(t));

  summary.step = 'B';
  summary.bList = await outcome(b, 'list_dynamic_tools', {});
  summary.bCall = await callDynamic(b, name, o.args);
  summary.bDeregister = await outcome(b, 'deregister_tool', { tool_name: name });

  summary.step = 'A again';
  summary.aCallAgain = await callDynamic(a, name, o.args);
  summary.aDeregister = await outcome(a, 'deregister_tool', { tool_name: name });
  summary.aListAfter = await outcome(a, 'list_dynamic_tools', {});
  summary.aCallGone = await callDynamic(a, name, o.args);
  summary.step = 'done';
  await a.close();
  await b.close();
}

runClient('dynamic-tools-client', parseOptions, run);
