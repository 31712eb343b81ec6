#!/usr/bin/env node
// A fleet's client for interop tests: the official TypeScript SDK 2.x client
// (@modelcontextprotocol/client) in 2026-07-28, one caller (a bearer token), against instances
// behind a load balancer or named one by one. Three runs:
//
//   load    starts --count tasks of --tool (at most --concurrency at once) through --url, then
//           follows each to its end. A start that fails (an HTTP error while the fleet is
//           unready, a JSON-RPC error, a result that is no task, no answer within 15 s) was not
//           acknowledged: it is sent again, with the same arguments and the same idempotency key
//           (_meta.dcc.idempotencyKey, one per task and run), so that a start the instance
//           accepted but never answered (it died) is not run a second time. Every occurrence of
//           "%s" in --args is replaced by the task's marker, LABEL-INDEX, so that what a script
//           writes names the task that ran it.
//   cancel  starts one task of --tool with --args on --url, waits until --pid-file holds the
//           pids of the script's processes, cancels the task through --cancel-url (another
//           instance) and measures how long until every one of those processes is gone and the
//           task reads cancelled through --cancel-url.
//   ask     calls --tool on --url; the SDK answers its input_required round with the name
//           "Ada", and that retry goes to --answer-url (another instance): a round one instance
//           minted is completed by another.
//
//   node fleet-client.mjs load|cancel|ask --sdk-dir DIR --url URL --token TOKEN --tool NAME
//     [--args JSON] [--count N] [--concurrency N] [--label TEXT] [--cancel-url URL]
//     [--pid-file FILE] [--answer-url URL] [--progress FILE] [--timeout MS]
//
// With --progress, load appends a line to FILE every 25 acknowledged tasks and for each of the
// first 20 refusals, so that a test can tell how far a run got while it runs.
//
// It prints one JSON object on stdout and exits 0 when the run finished, 1 when it failed, 2 on
// bad usage.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { UsageError, loadSdk, rawChannel, runClient } from './client-kit.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const START_TIMEOUT_MS = 15000;

function parseOptions(argv) {
  const o = {
    mode: argv[0], sdkDir: null, url: null, token: null, tool: null, args: '{}', count: 1,
    concurrency: 8, label: 'fleet', cancelUrl: null, pidFile: null, answerUrl: null,
    progress: null, timeout: 120000,
  };
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) {
        throw new UsageError(`${flag} needs a value`);
      }
      return argv[++i];
    };
    switch (flag) {
      case '--sdk-dir': o.sdkDir = value(); break;
      case '--url': o.url = value(); break;
      case '--token': o.token = value(); break;
      case '--tool': o.tool = value(); break;
      case '--args': o.args = value(); break;
      case '--count': o.count = Number(value()); break;
      case '--concurrency': o.concurrency = Number(value()); break;
      case '--label': o.label = value(); break;
      case '--cancel-url': o.cancelUrl = value(); break;
      case '--pid-file': o.pidFile = value(); break;
      case '--answer-url': o.answerUrl = value(); break;
      case '--progress': o.progress = value(); break;
      case '--timeout': o.timeout = Number(value()); break;
      default: throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (!['load', 'cancel', 'ask'].includes(o.mode)) {
    throw new UsageError('the first argument is load, cancel or ask');
  }
  for (const [flag, v] of [['--sdk-dir', o.sdkDir], ['--url', o.url], ['--token', o.token],
    ['--tool', o.tool]]) {
    if (!v) {
      throw new UsageError(`${flag} is required`);
    }
  }
  try {
    JSON.parse(o.args.replaceAll('%s', 'x'));
  } catch (e) {
    throw new UsageError(`--args takes JSON: ${e.message}`);
  }
  if (o.mode === 'cancel' && !(o.cancelUrl && o.pidFile)) {
    throw new UsageError('cancel needs --cancel-url and --pid-file');
  }
  if (o.mode === 'ask' && !o.answerUrl) {
    throw new UsageError('ask needs --answer-url');
  }
  return o;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects after `ms` unless `promise` settles first. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A connected 2.x client pinned to 2026-07-28 on `url` as the token's caller, with a raw channel
 * for the task requests; `fetch` (optional) replaces the transport's.
 */
async function connect(sdk, o, url, fetch) {
  const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
  const clientInfo = { name: 'skillport-fleet-client', version: '1.0.0' };
  const transportOptions = { requestInit: { headers: { Authorization: `Bearer ${o.token}` } } };
  if (fetch) {
    transportOptions.fetch = fetch;
  }
  const inner = new sdk.StreamableHTTPClientTransport(new URL(url), transportOptions);
  const raw = rawChannel(inner, () => ({
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': clientInfo,
  }));
  const client = new sdk.Client(clientInfo, {
    capabilities, versionNegotiation: { mode: { pin: MODERN } },
  });
  const answered = { elicitations: 0 };
  client.setRequestHandler('elicitation/create', async () => {
    answered.elicitations++;
    return { action: 'accept', content: { name: 'Ada' } };
  });
  await client.connect(raw.proxy, { timeout: o.timeout });
  if (client.getNegotiatedProtocolVersion() !== MODERN) {
    throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}, not ${MODERN}`);
  }
  return { client, raw, answered };
}

/** Starts one task; its id, or throws when the call was not acknowledged as a task. */
async function startTask(raw, tool, args, key) {
  const params = { name: tool, arguments: args };
  if (key) {
    params._meta = { dcc: { idempotencyKey: key } };
  }
  const created = await within(raw.request('tools/call', params), START_TIMEOUT_MS, 'tools/call');
  if (created.resultType !== 'task' || !created.taskId) {
    throw new Error(`not a task: ${JSON.stringify(created).slice(0, 300)}`);
  }
  return created.taskId;
}

async function load(sdk, o, summary) {
  const { client, raw } = await connect(sdk, o, o.url);
  const tasks = [];
  const refused = new Map();
  // Attempts whose instance died before it answered (a reset connection, or the balancer's 502 for
  // an incomplete answer): the client cannot know whether the task was accepted.
  const uncertain = [];
  const run = randomUUID();
  let attempts = 0;
  let next = 0;
  const started = Date.now();
  const report = (line) => {
    if (o.progress) {
      fs.appendFileSync(o.progress, `${Date.now() - started} ms ${o.label}: ${line}\n`);
    }
  };
  const worker = async () => {
    while (next < o.count) {
      const index = next++;
      for (let attempt = 1; ; attempt++) {
        attempts++;
        const marker = `${o.label}-${index}`;
        try {
          const args = JSON.parse(o.args.replaceAll('%s', marker));
          const key = `${run}-${marker}`;
          tasks.push({ index, marker, attempt, taskId: await startTask(raw, o.tool, args, key) });
          if (tasks.length % 25 === 0) {
            report(`${tasks.length} acknowledged`);
          }
          break;
        } catch (e) {
          const reason = (e?.message ?? String(e)).slice(0, 200);
          refused.set(reason, (refused.get(reason) ?? 0) + 1);
          if (/fetch failed|502 Bad Gateway|ECONNRESET|socket hang up|other side closed/.test(reason)) {
            uncertain.push(marker);
          }
          if (attempts - tasks.length <= 20) {
            report(`refused: ${reason}`);
          }
          if (attempt >= 200) {
            throw new Error(`task ${index} refused ${attempt} times, last: ${reason}`);
          }
          await sleep(100);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  summary.startMs = Date.now() - started;
  summary.attempts = attempts;
  summary.refused = Object.fromEntries(refused);
  summary.uncertain = uncertain;

  // Every acknowledged task followed to its end through the same URL.
  let open = [...tasks];
  let polls = 0;
  let rounds = 0;
  while (open.length > 0) {
    const still = [];
    let cursor = 0;
    const poller = async () => {
      while (cursor < open.length) {
        const task = open[cursor++];
        polls++;
        try {
          const got = await within(raw.request('tasks/get', { taskId: task.taskId }),
            START_TIMEOUT_MS, 'tasks/get');
          if (TERMINAL.includes(got.status)) {
            task.status = got.status;
            task.message = got.statusMessage ?? null;
            task.updatedAt = got.lastUpdatedAt;
            task.seenAt = new Date().toISOString();
            continue;
          }
        } catch {
          // unready for now: read again next round
        }
        still.push(task);
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, poller));
    open = still;
    if (++rounds % 25 === 0) {
      report(`${open.length} not ended: ${open.slice(0, 3).map((t) => t.taskId).join(' ')}`);
    }
    if (open.length > 0) {
      await sleep(200);
    }
  }
  report('all ended');
  summary.polls = polls;
  summary.ms = Date.now() - started;
  summary.tasks = tasks;
  await client.close();
}

/** The pid's process still runs (a zombie, which only waits to be reaped, does not). */
function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function cancel(sdk, o, summary) {
  const starter = await connect(sdk, o, o.url);
  const canceller = await connect(sdk, o, o.cancelUrl);
  const taskId = await startTask(starter.raw, o.tool, JSON.parse(o.args));
  summary.taskId = taskId;
  let pids = [];
  const until = Date.now() + 30000;
  while (pids.length < 2) {
    if (Date.now() > until) {
      throw new Error(`${o.pidFile} did not get the script's pids`);
    }
    await sleep(20);
    pids = fs.existsSync(o.pidFile)
      ? fs.readFileSync(o.pidFile, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
  }
  summary.pids = pids;
  summary.runningBefore = pids.filter(running).length;
  summary.statusBefore = (await canceller.raw.request('tasks/get', { taskId })).status;
  const asked = Date.now();
  const answered = canceller.raw.request('tasks/cancel', { taskId })
    .then(() => { summary.cancelAnsweredMs = Date.now() - asked; });
  while (pids.some(running) && Date.now() - asked < 10000) {
    await sleep(10);
  }
  summary.treeGoneMs = Date.now() - asked;
  await answered;
  summary.runningAfter = pids.filter(running).length;
  let task;
  do {
    await sleep(20);
    task = await canceller.raw.request('tasks/get', { taskId });
  } while (!TERMINAL.includes(task.status) && Date.now() - asked < 10000);
  summary.status = task.status;
  summary.statusMs = Date.now() - asked;
  await starter.client.close();
  await canceller.client.close();
}

async function ask(sdk, o, summary) {
  const calls = [];
  // Every request goes to --url but the retry that carries the answers, which goes to
  // --answer-url.
  const route = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    let target = o.url;
    if (body.includes('"tools/call"')) {
      const answered = body.includes('"inputResponses"');
      target = answered ? o.answerUrl : o.url;
      calls.push(answered ? 'answer' : 'call');
    }
    return fetch(target, init);
  };
  const { client, answered } = await connect(sdk, o, o.url, route);
  const result = await client.callTool({ name: o.tool, arguments: JSON.parse(o.args) },
    { timeout: o.timeout });
  summary.calls = calls;
  summary.elicitations = answered.elicitations;
  summary.isError = Boolean(result.isError);
  summary.text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
  await client.close();
}

runClient('fleet-client', parseOptions, async (o, summary) => {
  const sdk = await loadSdk('2', o.sdkDir);
  summary.sdk = `${sdk.name}@${sdk.version}`;
  summary.mode = o.mode;
  await { load, cancel, ask }[o.mode](sdk, o, summary);
});
