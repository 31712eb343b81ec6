// What the project's interop clients (smoke-, flow- and fleet-client.mjs) share: loading the official
// TypeScript SDK, 1.x or 2.x, from the folder interop.mjs installed it in, waiting for a stdio
// server to exit, sending task requests the 2.x client does not send itself, and the
// run-and-print-one-JSON-object frame the clients have.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bad command-line usage: the client says why on stderr and exits 2. */
export class UsageError extends Error {}

/** The file a package's "exports" map gives to `import` for a subpath ("." or "./x/y.js"). */
export function exportedFile(packageDir, subpath) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const pick = (target, star) => {
    if (typeof target === 'string') {
      return star === null ? target : target.replaceAll('*', star);
    }
    if (target && typeof target === 'object') {
      for (const condition of ['import', 'node', 'default']) {
        if (condition in target) {
          const found = pick(target[condition], star);
          if (found) {
            return found;
          }
        }
      }
    }
    return null;
  };
  const exports = manifest.exports ?? {};
  let file = subpath in exports ? pick(exports[subpath], null) : null;
  if (!file) {
    for (const [key, target] of Object.entries(exports)) {
      const star = key.indexOf('*');
      if (star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1))) {
        file = pick(target, subpath.slice(star, subpath.length - (key.length - star - 1)));
        break;
      }
    }
  }
  if (!file) {
    throw new Error(`${manifest.name} exports nothing at ${subpath}`);
  }
  return path.join(packageDir, file);
}

export async function importFrom(packageDir, subpath) {
  return import(pathToFileURL(exportedFile(packageDir, subpath)).href);
}

/**
 * Client, transports and version of SDK 1.x or 2.x, which share the client API used here; 1.x also
 * gives its ElicitRequestSchema (2.x takes the method name).
 */
export async function loadSdk(sdk, sdkDir) {
  const name = sdk === '1' ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/client';
  const dir = path.join(sdkDir, 'node_modules', name);
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  if (sdk === '1') {
    const [client, stdio, http, types] = await Promise.all([
      importFrom(dir, './client/index.js'),
      importFrom(dir, './client/stdio.js'),
      importFrom(dir, './client/streamableHttp.js'),
      importFrom(dir, './types.js'),
    ]);
    return {
      name, version, Client: client.Client, StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      ElicitRequestSchema: types.ElicitRequestSchema,
    };
  }
  const [client, stdio] = await Promise.all([importFrom(dir, '.'), importFrom(dir, './stdio')]);
  return {
    name, version, Client: client.Client, StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: client.StreamableHTTPClientTransport,
  };
}

/**
 * The SDK 2.x client does not implement the Tasks extension: it refuses a `resultType: "task"`
 * result and refuses to send `tasks/*` to a 2026-07-28 server. This wraps its transport so the
 * flow can send those requests itself, with its own ids and the per-request `_meta` envelope;
 * their responses are taken off the transport before the client sees them. Everything else
 * passes through untouched. (The transport still derives the MCP-Protocol-Version, Mcp-Method
 * and Mcp-Name headers from the envelope, as for the client's own requests.)
 */
export function rawChannel(transport, envelope) {
  const pending = new Map();
  let next = 0;
  const proxy = new Proxy(transport, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
    set(target, prop, value) {
      let v = value;
      if (prop === 'onmessage' && typeof value === 'function') {
        v = (message, extra) => {
          if (message && typeof message.id === 'string' && pending.has(message.id)) {
            const waiter = pending.get(message.id);
            pending.delete(message.id);
            if (message.error) {
              const error = new Error(`${message.error.code}: ${message.error.message}`);
              error.code = message.error.code;
              waiter.reject(error);
            } else {
              waiter.resolve(message.result);
            }
            return undefined;
          }
          return value(message, extra);
        };
      }
      return Reflect.set(target, prop, v, target);
    },
  });
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = `flow-${++next}`;
    pending.set(id, { resolve, reject });
    const withMeta = { ...params, _meta: { ...envelope(), ...(params._meta ?? {}) } };
    Promise.resolve(transport.send({ jsonrpc: '2.0', id, method, params: withMeta }))
      .catch((e) => {
        pending.delete(id);
        reject(e);
      });
  });
  return { proxy, request };
}

/** Waits until a stdio server has exited (and so finished its own cleanup), at most `ms`. */
export async function exited(pid, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Parses the options, runs, prints one JSON summary on stdout and exits: 0 when `run` finished,
 * 1 when it threw or the deadline (`o.timeout` plus `graceMs`) passed, 2 on bad usage.
 */
export function runClient(name, parseOptions, run, graceMs = 0) {
  let o;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${name}: ${e.message}\n`);
    process.exit(2);
  }
  const summary = { ok: false };
  const deadline = setTimeout(() => {
    summary.error = `timed out after ${o.timeout} ms`;
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    process.exit(1);
  }, o.timeout + graceMs);
  run(o, summary)
    .then(() => {
      summary.ok = true;
    })
    .catch((e) => {
      summary.error = e?.message ?? String(e);
    })
    .finally(() => {
      clearTimeout(deadline);
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      process.exit(summary.ok ? 0 : 1);
    });
}
