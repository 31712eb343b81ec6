// Walks every skill a server offers with the official TypeScript SDK 1.x client: lists the tools
// (every page, parsed and validated by the SDK, output schemas compiled by its Ajv), loads each
// skill, lists again, activates its groups, calls each of its tools with the arguments the plan
// gives or the least its input schema asks for (the SDK checks structured results against the
// listed outputSchema), then unloads it. Extra calls from the plan follow (searches, prompts).
// With "awaitJobs": true in the plan, a call answered with a queued job is followed until the job
// ends, and its last status is kept beside the call.
//
//   node walk-skills.mjs --sdk-dir DIR --url URL --plan FILE
//
// Prints one JSON report on stdout. Exits 0 when the walk ran to its end, whatever the results:
// the test reading the report decides what is right; 1 when the walk itself broke.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function option(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    throw new Error(`${name} is required`);
  }
  return process.argv[i + 1];
}

async function importSdk(sdkDir, file) {
  const dir = path.join(sdkDir, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
  return import(pathToFileURL(path.join(dir, file)).href);
}

/** The least arguments an input schema requires: required properties, simplest valid values. */
function leastArguments(schema) {
  const args = {};
  const props = schema?.properties ?? {};
  for (const name of schema?.required ?? []) {
    args[name] = leastValue(props[name] ?? {});
  }
  return args;
}

function leastValue(s) {
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number': return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean': return true;
    case 'array': {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, () => leastValue(s.items ?? {}));
    }
    case 'object': return leastArguments(s);
    default: return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

function summarise(result) {
  return {
    isError: result.isError === true,
    contentTypes: (result.content ?? []).map((c) => c.type),
    text: (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
    content: (result.content ?? []).map((c) => (c.type === 'text' ? c : { ...c, data: c.data?.length })),
    structuredContent: result.structuredContent ?? null,
    meta: result._meta ?? null,
  };
}

async function main() {
  const sdkDir = option('--sdk-dir');
  const url = option('--url');
  const plan = JSON.parse(fs.readFileSync(option('--plan'), 'utf8'));
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    importSdk(sdkDir, 'client/index.js'),
    importSdk(sdkDir, 'client/streamableHttp.js'),
  ]);
  const sdkVersion = JSON.parse(fs.readFileSync(
    path.join(sdkDir, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')).version;
  const client = new Client({ name: 'skillport-skills-walk', version: '1.0.0' }, { capabilities: {} });
  const report = { sdk: sdkVersion, lists: 0, listErrors: [], skills: {}, extra: [] };
  const timeout = { timeout: 60000 };
  const listAll = async (where) => {
    const tools = [];
    let cursor;
    try {
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, timeout);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      report.lists++;
    } catch (e) {
      report.listErrors.push({ where, error: String(e?.message ?? e) });
    }
    return tools;
  };
  const call = async (name, args) => {
    try {
      return summarise(await client.callTool({ name, arguments: args }, undefined, timeout));
    } catch (e) {
      return { sdkError: String(e?.message ?? e) };
    }
  };

  const awaitJob = async (jobId) => {
    const until = Date.now() + 60000;
    let last;
    while (Date.now() < until) {
      last = await call('jobs_get_status', { job_id: jobId, include_result: true });
      const status = last.structuredContent?.status;
      if (status && !['pending', 'running'].includes(status)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    return { ...last, timedOut: true };
  };

  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  report.firstList = (await listAll('first')).map((t) => t.name);
  const listed = await call('list_skills', {});
  const skills = (listed.structuredContent?.skills ?? []).map((s) => s.name);
  for (const skill of [...new Set(skills)].sort()) {
    const entry = { calls: {} };
    report.skills[skill] = entry;
    entry.load = await call('load_skill', { skill_name: skill });
    const load = entry.load.structuredContent ?? {};
    for (const group of load.available_groups ?? []) {
      entry.calls[`activate ${group.name}`] =
        await call('activate_tool_group', { group_name: group.name, skill_name: skill });
    }
    const tools = await listAll(skill);
    const ours = tools.filter((t) => t._meta?.dcc?.skill === skill);
    entry.listed = ours.map((t) => ({
      name: t.name,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema ?? null,
      annotations: t.annotations ?? null,
      meta: t._meta ?? null,
    }));
    for (const tool of ours) {
      const planned = plan.arguments?.[`${skill}/${tool.name}`];
      const result = await call(tool.name, planned ?? leastArguments(tool.inputSchema));
      if (plan.awaitJobs && result.structuredContent?.job_id && result.structuredContent?.status === 'pending') {
        result.job = await awaitJob(result.structuredContent.job_id);
      }
      entry.calls[tool.name] = result;
    }
    if (load.loaded === true) {
      entry.unload = await call('unload_skill', { skill_name: skill });
    }
  }
  for (const extra of plan.extra ?? []) {
    if (extra.prompt) {
      try {
        const got = await client.getPrompt({ name: extra.prompt, arguments: extra.arguments ?? {} });
        report.extra.push({ prompt: extra.prompt, messages: got.messages });
      } catch (e) {
        report.extra.push({ prompt: extra.prompt, sdkError: String(e?.message ?? e) });
      }
    } else if (extra.listPrompts) {
      try {
        const got = await client.listPrompts();
        report.extra.push({ listPrompts: got.prompts.map((p) => p.name) });
      } catch (e) {
        report.extra.push({ listPrompts: null, sdkError: String(e?.message ?? e) });
      }
    } else {
      report.extra.push({ tool: extra.tool, arguments: extra.arguments, result: await call(extra.tool, extra.arguments ?? {}) });
    }
  }
  report.lastList = (await listAll('last')).map((t) => t.name);
  await client.close();
  process.stdout.write(JSON.stringify(report) + '\n');
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ broken: String(e?.stack ?? e) }) + '\n');
  process.exit(1);
});
