#!/usr/bin/env node
// The whole progressive-loading flow of an agent, driven through the official TypeScript SDK
// client (1.x @modelcontextprotocol/sdk, 2.x @modelcontextprotocol/client) for interop tests:
//
//   discover (2.x) -> search_skills -> load_skill -> a script tool -> a Java tool ->
//   an elicitation tool (the SDK answers the server's question) -> an async tool polled to its
//   end -> the async tool again, cancelled
//
// A 2.x client speaks 2026-07-28 when the server does: tools not in tools/list are called with
// call_tool, the elicitation comes back as an input_required round trip the SDK fulfils, and the
// async tool is a task of the io.modelcontextprotocol/tasks extension (tasks/get, tasks/cancel).
// A 1.x client speaks the 2025 era: load_skill lists the tools, the elicitation is a request to
// the client, and the async tool is a job (jobs_get_status, jobs_cancel).
//
//   node flow-client.mjs --sdk 1|2 --sdk-dir DIR (--url URL | -- COMMAND ARGS...)
//     --skill NAME --query TEXT --script-tool TOOL [--script-args JSON]
//     --java-tool TOOL [--java-args JSON] --elicit-tool TOOL
//     --async-tool TOOL [--async-args JSON] [--cancel-args JSON] [--header "K: V"] [--timeout MS]
//     [--negotiate auto|VERSION]   (2.x: probe with server/discover, or pin a revision; auto)
//
// It prints one JSON object on stdout and exits 0 when every step worked, 1 when one failed (the
// object names the step and the error), 2 on bad usage.

import { UsageError, exited, loadSdk, rawChannel, runClient } from './client-kit.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';


function parseOptions(argv) {
  const o = {
    sdk: null, sdkDir: null, url: null, command: null, skill: null, query: null,
    scriptTool: null, scriptArgs: {}, javaTool: null, javaArgs: {}, elicitTool: null,
    asyncTool: null, asyncArgs: {}, cancelArgs: null, headers: {}, timeout: 120000,
    negotiate: 'auto',
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
      case '--skill': o.skill = value(); break;
      case '--query': o.query = value(); break;
      case '--script-tool': o.scriptTool = value(); break;
      case '--script-args': o.scriptArgs = json(flag, value()); break;
      case '--java-tool': o.javaTool = value(); break;
      case '--java-args': o.javaArgs = json(flag, value()); break;
      case '--elicit-tool': o.elicitTool = value(); break;
      case '--async-tool': o.asyncTool = value(); break;
      case '--async-args': o.asyncArgs = json(flag, value()); break;
      case '--cancel-args': o.cancelArgs = json(flag, value()); break;
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
  for (const [flag, v] of [['--sdk-dir', o.sdkDir], ['--skill', o.skill], ['--query', o.query],
    ['--script-tool', o.scriptTool], ['--java-tool', o.javaTool], ['--elicit-tool', o.elicitTool],
    ['--async-tool', o.asyncTool]]) {
    if (!v) {
      throw new UsageError(`${flag} is required`);
    }
  }
  if (!o.url === !(o.command && o.command.length > 0)) {
    throw new UsageError('give either --url URL or -- COMMAND ARGS...');
  }
  o.cancelArgs ??= o.asyncArgs;
  return o;
}

/** A result schema that takes any object: server/discover's result is ours to read. */
const ANY = {
  '~standard': { version: 1, vendor: 'flow-client', validate: (value) => ({ value }) },
};

async function run(o, summary) {
  const sdk = await loadSdk(o.sdk, o.sdkDir);
  summary.sdk = `${sdk.name}@${sdk.version}`;
  const inner = o.url
    ? new sdk.StreamableHTTPClientTransport(new URL(o.url), { requestInit: { headers: o.headers } })
    : new sdk.StdioClientTransport({
      command: o.command[0], args: o.command.slice(1), stderr: 'inherit',
    });
  const capabilities = { elicitation: {} };
  if (o.sdk === '2') {
    capabilities.extensions = { [TASKS]: {} };
  }
  const clientInfo = { name: 'skillport-flow-client', version: '1.0.0' };
  const raw = rawChannel(inner, () => ({
    'io.modelcontextprotocol/protocolVersion': summary.protocolVersion,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': clientInfo,
  }));
  const transport = o.sdk === '2' ? raw.proxy : inner;
  const clientOptions = { capabilities };
  if (o.sdk === '2') {
    // 2.x speaks 2025 unless told: 'auto' probes with server/discover, a pin insists.
    clientOptions.versionNegotiation = {
      mode: o.negotiate === 'auto' ? 'auto' : { pin: o.negotiate },
    };
  }
  const client = new sdk.Client(clientInfo, clientOptions);
  summary.elicitations = 0;
  const answer = async () => {
    summary.elicitations++;
    return { action: 'accept', content: { name: 'Ada' } };
  };
  if (o.sdk === '1') {
    client.setRequestHandler(sdk.ElicitRequestSchema, answer);
  } else {
    client.setRequestHandler('elicitation/create', answer);
  }
  const options = { timeout: o.timeout };
  const call = async (name, args) => (o.sdk === '1'
    ? client.callTool({ name, arguments: args }, undefined, options)
    : client.callTool({ name, arguments: args }, options));
  const textOf = (result) => (result.content ?? []).map((c) => c.text ?? '').join('\n');
  const check = (step, result) => {
    if (result.isError) {
      throw new Error(`${step} returned isError: ${textOf(result)}`);
    }
    return result;
  };

  summary.step = 'connect';
  await client.connect(transport, options);
  const modern = typeof client.getNegotiatedProtocolVersion === 'function'
    && client.getNegotiatedProtocolVersion() === '2026-07-28';
  summary.protocolVersion = typeof client.getNegotiatedProtocolVersion === 'function'
    ? client.getNegotiatedProtocolVersion() ?? null : null;
  summary.era = modern ? 'modern' : 'legacy';
  try {
    if (modern) {
      summary.step = 'server/discover';
      const discover = await client.request({ method: 'server/discover', params: {} }, ANY, options);
      summary.discover = {
        versions: discover.supportedVersions ?? [],
        tasks: Boolean(discover.capabilities?.extensions?.[TASKS]),
      };
    }
    summary.step = 'tools/list';
    const listed = (await client.listTools(undefined, options)).tools.map((t) => t.name);
    summary.toolsListed = listed.length;

    summary.step = 'search_skills';
    const found = check('search_skills', await call('search_skills', { query: o.query }));
    summary.found = (found.structuredContent?.skills ?? []).map((s) => s.name);
    if (!summary.found.includes(o.skill)) {
      throw new Error(`search_skills did not find ${o.skill}: ${summary.found}`);
    }

    summary.step = 'load_skill';
    const loaded = check('load_skill', await call('load_skill', { skill_name: o.skill }));
    const tools = loaded.structuredContent?.tools ?? [];
    summary.loadedTools = tools.map((t) => t.name);
    summary.instructions = typeof loaded.structuredContent?.instructions === 'string';
    const after = (await client.listTools(undefined, options)).tools.map((t) => t.name);
    summary.listChangedByLoad = after.length !== listed.length;
    const callName = (bare) => tools.find((t) => t.name === bare || t.name.endsWith(`__${bare}`))
      ?.name ?? bare;
    const inList = (name) => after.includes(name);
    // A tool the list does not show is called through call_tool (2026-07-28, catalog listing).
    const callAny = async (bare, args) => {
      const name = callName(bare);
      if (inList(name) || !modern) {
        return call(name, args);
      }
      summary.viaCallTool = (summary.viaCallTool ?? 0) + 1;
      return call('call_tool', { name, arguments: args });
    };

    summary.step = `script tool ${o.scriptTool}`;
    summary.script = textOf(check(o.scriptTool, await callAny(o.scriptTool, o.scriptArgs)));

    summary.step = `java tool ${o.javaTool}`;
    summary.java = textOf(check(o.javaTool, await callAny(o.javaTool, o.javaArgs)));

    summary.step = `elicitation tool ${o.elicitTool}`;
    summary.elicited = textOf(check(o.elicitTool, await callAny(o.elicitTool, {})));

    summary.step = `async tool ${o.asyncTool}`;
    summary.async = await runAsync(o, client, raw, callAny, modern, o.asyncArgs, false, options);
    summary.step = `async tool ${o.asyncTool} cancelled`;
    summary.cancelled = await runAsync(o, client, raw, callAny, modern, o.cancelArgs, true,
      options);
    delete summary.step;
  } finally {
    const pid = inner.pid;
    await client.close();
    if (pid) {
      await exited(pid, 10000);
    }
  }
}

/**
 * Starts the async tool and follows it: a task (2026-07-28) polled with tasks/get, or a job
 * polled with jobs_get_status; with `cancel`, cancels it once it runs and waits for the end.
 */
async function runAsync(o, client, raw, callAny, modern, args, cancel, options) {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const out = { polls: 0 };
  if (modern) {
    const name = (await client.listTools(undefined, options)).tools.some((t) => t.name === o.asyncTool)
      ? o.asyncTool : null;
    const params = name
      ? { name, arguments: args }
      : { name: 'call_tool', arguments: { name: `${o.skill}__${o.asyncTool}`, arguments: args } };
    const created = await raw.request('tools/call', params);
    if (created.resultType !== 'task' || !created.taskId) {
      throw new Error(`expected a task, got ${JSON.stringify(created)}`);
    }
    out.taskId = created.taskId;
    const get = () => raw.request('tasks/get', { taskId: out.taskId });
    if (cancel) {
      await sleep(1500);
      await raw.request('tasks/cancel', { taskId: out.taskId });
    }
    let task;
    do {
      await sleep(Math.min(created.pollIntervalMs ?? 500, 500));
      task = await get();
      out.polls++;
    } while (['working', 'input_required'].includes(task.status) && out.polls < 240);
    out.status = task.status;
    out.result = task.result ?? null;
    return out;
  }
  const queued = await callAny(o.asyncTool, args);
  const jobId = queued.structuredContent?.job_id;
  if (!jobId) {
    throw new Error(`expected a job, got ${JSON.stringify(queued)}`);
  }
  out.jobId = jobId;
  const call = (name, a) => (o.sdk === '1'
    ? client.callTool({ name, arguments: a }, undefined, options)
    : client.callTool({ name, arguments: a }, options));
  if (cancel) {
    await sleep(1500);
    await call('jobs_cancel', { job_id: jobId });
  }
  let job;
  do {
    await sleep(500);
    job = (await call('jobs_get_status', { job_id: jobId })).structuredContent;
    out.polls++;
  } while (['pending', 'running'].includes(job.status) && out.polls < 240);
  out.status = job.status;
  out.result = job.result ?? null;
  return out;
}

runClient('flow-client', parseOptions, run);
