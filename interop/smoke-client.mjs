#!/usr/bin/env node
// An independent MCP client for interop tests, built on the official TypeScript SDK (1.x package
// @modelcontextprotocol/sdk or 2.x package @modelcontextprotocol/client). Run it through
// `node interop/interop.mjs smoke[@1|@2] ...`, which installs the SDK and passes --sdk/--sdk-dir.
//
// It connects over Streamable HTTP (--url) or stdio (-- COMMAND ARGS...), then: lists tools
// (every page), makes each --call in order, lists the tools again if the server said they changed,
// lists prompts, resources and templates where the server offers them, gets --prompt, reads --read,
// pings (2025 era; 2026-07-28 has no ping) and closes. It prints one JSON object on stdout and
// exits 0 when every step worked, 1 when one failed (the object then names the step and the
// error), 2 on bad usage.
//
//   --call TOOL [--args JSON]   a tools/call (repeatable; --args applies to the --call before it)
//   --prompt NAME [--prompt-args JSON]
//   --read URI                  a resources/read (repeatable)
//   --progress                  ask for progress on every call and count the notifications
//   --allow-tool-error          a result with isError: true does not fail the run
//   --header "NAME: VALUE"      an HTTP header on every request (repeatable)
//   --timeout MS                the deadline for the whole run (default 60000)
//   --negotiate auto|VERSION    (2.x) probe with server/discover, or pin a revision; without it
//                               the SDK's default (2025-11-25)

import { UsageError, exited, loadSdk, runClient } from './client-kit.mjs';

function parseJson(flag, text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag} takes JSON: ${e.message}`);
  }
}

function parseOptions(argv) {
  const o = {
    sdk: null, sdkDir: null, url: null, command: null, calls: [], prompt: null, promptArgs: {},
    reads: [], progress: false, allowToolError: false, headers: {}, timeout: 60000,
    negotiate: null,
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
      case '--call': o.calls.push({ name: value(), arguments: {} }); break;
      case '--args':
        if (o.calls.length === 0) {
          throw new UsageError('--args belongs to a --call before it');
        }
        o.calls[o.calls.length - 1].arguments = parseJson(flag, value());
        break;
      case '--prompt': o.prompt = value(); break;
      case '--prompt-args': o.promptArgs = parseJson(flag, value()); break;
      case '--read': o.reads.push(value()); break;
      case '--progress': o.progress = true; break;
      case '--allow-tool-error': o.allowToolError = true; break;
      case '--header': {
        const header = value();
        const colon = header.indexOf(':');
        if (colon <= 0) {
          throw new UsageError(`--header takes "NAME: VALUE", not ${header}`);
        }
        o.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
        break;
      }
      case '--timeout': o.timeout = Number(value()); break;
      case '--negotiate': o.negotiate = value(); break;
      case '--': o.command = argv.slice(i + 1); i = argv.length; break;
      default: throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (o.sdk !== '1' && o.sdk !== '2') {
    throw new UsageError('--sdk 1 or --sdk 2 is required');
  }
  if (o.negotiate !== null && o.sdk !== '2') {
    throw new UsageError('--negotiate needs --sdk 2');
  }
  if (!o.sdkDir) {
    throw new UsageError('--sdk-dir is required');
  }
  if (!o.url === !(o.command && o.command.length > 0)) {
    throw new UsageError('give either --url URL or -- COMMAND ARGS...');
  }
  if (!(o.timeout > 0)) {
    throw new UsageError('--timeout takes a positive number of milliseconds');
  }
  return o;
}

async function allPages(list, key) {
  const items = [];
  let cursor;
  let pages = 0;
  do {
    const page = await list(cursor === undefined ? undefined : { cursor });
    items.push(...(page[key] ?? []));
    cursor = page.nextCursor;
    if (++pages > 1000) {
      throw new Error(`${key}: more than 1000 pages`);
    }
  } while (cursor);
  return items;
}

async function run(o, summary) {
  const sdk = await loadSdk(o.sdk, o.sdkDir);
  summary.sdk = `${sdk.name}@${sdk.version}`;
  const transport = o.url
    ? new sdk.StreamableHTTPClientTransport(new URL(o.url), { requestInit: { headers: o.headers } })
    : new sdk.StdioClientTransport({
      // The whole environment, not the SDK's short default list: a test gives the server its
      // home, temp folder and jar through it.
      command: o.command[0], args: o.command.slice(1), env: { ...process.env }, stderr: 'inherit',
    });
  const clientOptions = { capabilities: {} };
  if (o.negotiate !== null) {
    clientOptions.versionNegotiation = {
      mode: o.negotiate === 'auto' ? 'auto' : { pin: o.negotiate },
    };
  }
  const client = new sdk.Client({ name: 'skillport-smoke-client', version: '1.0.0' }, clientOptions);
  // Notifications by method; progress is counted from the calls' progress callbacks.
  const seen = {};
  const count = (method) => { seen[method] = (seen[method] ?? 0) + 1; };
  client.fallbackNotificationHandler = async (n) => count(n.method);
  // The protocol version the initialize result names (SDK 1.x has no accessor for it).
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (summary.protocolVersion === undefined && message?.result?.protocolVersion) {
        summary.protocolVersion = message.result.protocolVersion;
      }
      receive?.(message, extra);
    };
    return start();
  };
  summary.notifications = seen;
  const options = { timeout: o.timeout };

  summary.step = 'connect';
  await client.connect(transport, options);
  const capabilities = client.getServerCapabilities() ?? {};
  summary.serverInfo = client.getServerVersion() ?? null;
  if (typeof client.getNegotiatedProtocolVersion === 'function') {
    summary.protocolVersion = client.getNegotiatedProtocolVersion() ?? summary.protocolVersion;
  }
  summary.protocolVersion ??= null;
  summary.capabilities = Object.keys(capabilities).sort();
  try {
    summary.step = 'tools/list';
    summary.tools = (await allPages((p) => client.listTools(p, options), 'tools')).map((t) => t.name);

    summary.calls = [];
    for (const call of o.calls) {
      summary.step = `tools/call ${call.name}`;
      const callOptions = o.progress
        ? { ...options, onprogress: () => count('notifications/progress') }
        : options;
      const params = { name: call.name, arguments: call.arguments };
      // SDK 1.x takes a result schema before the options; 2.x does not.
      const result = o.sdk === '1'
        ? await client.callTool(params, undefined, callOptions)
        : await client.callTool(params, callOptions);
      summary.calls.push({
        name: call.name,
        isError: result.isError === true,
        content: result.content ?? [],
        structuredContent: result.structuredContent ?? null,
      });
      if (result.isError === true && !o.allowToolError) {
        throw new Error(`${call.name} returned isError: ${JSON.stringify(result.content)}`);
      }
    }
    if (seen['notifications/tools/list_changed'] > 0) {
      summary.step = 'tools/list again';
      summary.toolsAfterCalls =
        (await allPages((p) => client.listTools(p, options), 'tools')).map((t) => t.name);
    }
    if (capabilities.prompts) {
      summary.step = 'prompts/list';
      summary.prompts =
        (await allPages((p) => client.listPrompts(p, options), 'prompts')).map((p) => p.name);
    }
    if (o.prompt) {
      summary.step = `prompts/get ${o.prompt}`;
      summary.prompt = await client.getPrompt({ name: o.prompt, arguments: o.promptArgs }, options);
    }
    if (capabilities.resources) {
      summary.step = 'resources/list';
      summary.resources =
        (await allPages((p) => client.listResources(p, options), 'resources')).map((r) => r.uri);
      summary.step = 'resources/templates/list';
      summary.resourceTemplates =
        (await allPages((p) => client.listResourceTemplates(p, options), 'resourceTemplates'))
          .map((t) => t.uriTemplate);
    }
    summary.reads = [];
    for (const uri of o.reads) {
      summary.step = `resources/read ${uri}`;
      summary.reads.push(await client.readResource({ uri }, options));
    }
    // 2026-07-28 has no ping.
    if (summary.protocolVersion !== '2026-07-28') {
      summary.step = 'ping';
      await client.ping(options);
    }
    delete summary.step;
  } finally {
    const pid = transport.pid;
    await client.close();
    if (pid) {
      await exited(pid, 10000);
    }
  }
}

runClient('smoke-client', parseOptions, run, 5000);
