#!/usr/bin/env node
// Installs the pinned interop tools (Node 22, the MCP conformance suites, the TypeScript SDK
// clients, the MCP Inspector, skills-ref, the MCP reference server 'everything' that bridge tests
// mount) from the npm registry into one cache, and runs them.
//
//   node interop/interop.mjs path TOOL[@VERSION]        installs if needed; prints the tool's entry
//   node interop/interop.mjs dir TOOL[@VERSION]         installs if needed; prints its folder
//   node interop/interop.mjs run TOOL[@VERSION] [ARGS]  runs the tool on Node 22
//   node interop/interop.mjs conformance[@VERSION] URL [ARGS]
//                                                       the server suite against URL (--suite all, ...)
//   node interop/interop.mjs smoke[@1|@2] [ARGS]        interop/smoke-client.mjs on TS SDK 1.x or 2.x
//   node interop/interop.mjs list                       the pins and what is installed
//
// A VERSION is a pinned alias (node@22, sdk@1, client@2, conformance@0.2) or an exact version.
// Cache: $SKILLPORT_INTEROP_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/skillport/interop. npm's own
// download cache lives inside it (unless $npm_config_cache says otherwise), so nothing else under
// the home folder is written. A tool is
// installed into a private staging folder and renamed into place, so concurrent builds never see a
// half-installed tool and the loser of a race simply uses the winner's copy. Once installed, a
// tool is used offline.
//
// Needs Node 18+ and npm on PATH (to bootstrap); every tool then runs on the cached Node 22.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Each tool: its npm package, pinned versions by alias, the default alias, its entry file. */
const TOOLS = {
  node: {
    pkg: 'node',
    pins: { 22: '22.23.3' },
    fallback: '22',
    entry: 'node_modules/node/bin/node',
  },
  conformance: {
    pkg: '@modelcontextprotocol/conformance',
    pins: { '0.1': '0.1.16', '0.2': '0.2.0-alpha.12' },
    fallback: '0.1',
    entry: 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
  },
  sdk: {
    pkg: '@modelcontextprotocol/sdk',
    pins: { 1: '1.32.2' },
    fallback: '1',
    entry: 'node_modules/@modelcontextprotocol/sdk/package.json',
  },
  client: {
    pkg: '@modelcontextprotocol/client',
    pins: { 2: '2.4.0' },
    fallback: '2',
    entry: 'node_modules/@modelcontextprotocol/client/package.json',
  },
  inspector: {
    pkg: '@modelcontextprotocol/inspector',
    pins: { '2.12': '2.12.0' },
    fallback: '2.12',
    entry: 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
  },
  everything: {
    pkg: '@modelcontextprotocol/server-everything',
    pins: { 2026: '2026.8.31' },
    fallback: '2026',
    entry: 'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
  },
  'skills-ref': {
    pkg: 'skills-ref',
    pins: { '0.1': '0.1.5' },
    fallback: '0.1',
    entry: 'node_modules/skills-ref/package.json',
  },
};

const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const STALE_STAGING_MS = 60 * 60 * 1000;

class UsageError extends Error {}

function cacheRoot() {
  if (process.env.SKILLPORT_INTEROP_CACHE) {
    return path.resolve(process.env.SKILLPORT_INTEROP_CACHE);
  }
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'skillport', 'interop');
}

/** "conformance@0.2" → { name, tool, version: "0.2.0-alpha.12" }. */
function resolveSpec(spec) {
  const at = spec.indexOf('@', 1);
  const name = at < 0 ? spec : spec.slice(0, at);
  const tool = TOOLS[name];
  if (!tool) {
    throw new UsageError(`unknown tool '${name}' (known: ${Object.keys(TOOLS).join(', ')})`);
  }
  const wanted = at < 0 ? tool.fallback : spec.slice(at + 1);
  const version = tool.pins[wanted] ?? (EXACT.test(wanted) ? wanted : null);
  if (!version) {
    const aliases = Object.entries(tool.pins).map(([a, v]) => `${a} (${v})`);
    throw new UsageError(
      `no pinned version '${wanted}' of ${name}: use ${aliases.join(', ')} or an exact version`);
  }
  return { name, tool, version };
}

function npmEnvironment(root) {
  return {
    ...process.env,
    npm_config_cache: process.env.npm_config_cache || path.join(root, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_loglevel: 'error',
    npm_config_progress: 'false',
  };
}

function removeStaleStaging(staging) {
  let entries;
  try {
    entries = fs.readdirSync(staging);
  } catch {
    return;
  }
  const now = Date.now();
  for (const entry of entries) {
    const dir = path.join(staging, entry);
    try {
      if (now - fs.statSync(dir).mtimeMs > STALE_STAGING_MS) {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } catch {
      // another build removed it first
    }
  }
}

/** Installs the tool once and returns its folder. */
function install({ name, tool, version }) {
  const root = cacheRoot();
  const target = path.join(root, `${name}-${version}`);
  if (fs.existsSync(path.join(target, tool.entry))) {
    return target;
  }
  const staging = path.join(root, '.staging');
  fs.mkdirSync(staging, { recursive: true });
  removeStaleStaging(staging);
  const work = path.join(staging, `${name}-${version}-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(work);
  try {
    fs.writeFileSync(
      path.join(work, 'package.json'),
      JSON.stringify({ name: `skillport-interop-${name}`, private: true }, null, 2) + '\n');
    process.stderr.write(`interop: installing ${tool.pkg}@${version} into ${target}\n`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefer-offline', '--no-save', '--no-package-lock', '--prefix', work,
        `${tool.pkg}@${version}`],
      { env: npmEnvironment(root), stdio: ['ignore', process.stderr, process.stderr] });
    if (npm.error) {
      throw new Error(`npm could not be started (${npm.error.message}); install Node.js with npm`);
    }
    if (npm.status !== 0) {
      throw new Error(`npm install ${tool.pkg}@${version} failed (exit ${npm.status})`);
    }
    if (!fs.existsSync(path.join(work, tool.entry))) {
      throw new Error(`${tool.pkg}@${version} installed without ${tool.entry}`);
    }
    if (fs.existsSync(target) && !fs.existsSync(path.join(target, tool.entry))) {
      // A broken copy (its entry file is gone): set it aside for the stale-staging sweep.
      try {
        fs.renameSync(target, `${work}-broken`);
      } catch {
        // a concurrent install set it aside first
      }
    }
    try {
      fs.renameSync(work, target);
    } catch (e) {
      // A concurrent install renamed its copy first: use that one.
      if (!fs.existsSync(path.join(target, tool.entry))) {
        throw e;
      }
    }
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function entryOf(spec) {
  const resolved = resolveSpec(spec);
  return path.join(install(resolved), resolved.tool.entry);
}

function node22() {
  return entryOf('node');
}

/** Runs a command with inherited stdio, passing on signals; resolves to its exit code. */
function runInherited(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(signal, forward);
    }
    child.on('error', (e) => {
      process.stderr.write(`interop: ${command}: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + os.constants.signals[signal] : 1)));
  });
}

function runTool(spec, args) {
  const { name } = resolveSpec(spec);
  const node = node22();
  if (name === 'node') {
    return runInherited(node, args);
  }
  const entry = entryOf(spec);
  if (entry.endsWith('package.json')) {
    throw new UsageError(`${name} is a library, not a program: use 'dir ${spec}'`);
  }
  return runInherited(node, [entry, ...args]);
}

function conformance(spec, args) {
  const [url, ...rest] = args;
  if (!url || url.startsWith('-')) {
    throw new UsageError('usage: conformance[@VERSION] URL [--suite all | --scenario NAME ...]');
  }
  return runTool(spec, ['server', '--url', url, ...rest]);
}

function smoke(spec, args) {
  const major = spec.includes('@') ? spec.slice(spec.indexOf('@') + 1) : '1';
  const library = { 1: 'sdk@1', 2: 'client@2' }[major];
  if (!library) {
    throw new UsageError(`smoke@${major}: use smoke@1 (TS SDK 1.x) or smoke@2 (TS SDK 2.x)`);
  }
  const dir = install(resolveSpec(library));
  return runInherited(node22(), [
    path.join(HERE, 'smoke-client.mjs'), '--sdk', major, '--sdk-dir', dir, ...args,
  ]);
}

function list() {
  const root = cacheRoot();
  const lines = [`cache ${root}`];
  for (const [name, tool] of Object.entries(TOOLS)) {
    for (const [alias, version] of Object.entries(tool.pins)) {
      const installed = fs.existsSync(path.join(root, `${name}-${version}`, tool.entry));
      const mark = alias === tool.fallback ? ' (default)' : '';
      lines.push(`${name}@${alias}${mark} = ${tool.pkg}@${version}${installed ? ' installed' : ''}`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

async function main(argv) {
  const [command, ...rest] = argv;
  const base = command ? command.split('@')[0] : '';
  switch (base) {
    case 'path':
    case 'dir': {
      if (rest.length !== 1) {
        throw new UsageError(`usage: ${base} TOOL[@VERSION]`);
      }
      const resolved = resolveSpec(rest[0]);
      const dir = install(resolved);
      process.stdout.write((base === 'dir' ? dir : path.join(dir, resolved.tool.entry)) + '\n');
      return 0;
    }
    case 'run':
      if (rest.length < 1) {
        throw new UsageError('usage: run TOOL[@VERSION] [ARGS...]');
      }
      return runTool(rest[0], rest.slice(1));
    case 'conformance':
      return conformance(command, rest);
    case 'smoke':
      return smoke(command, rest);
    case 'list':
      return list();
    default:
      throw new UsageError(
        'usage: interop.mjs path|dir|run TOOL[@VERSION] | conformance[@VERSION] URL [ARGS] |'
          + ' smoke[@1|@2] [ARGS] | list');
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`interop: ${e.message}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  });
