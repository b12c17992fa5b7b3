// @ts-check
'use strict';
/**
 * The real-n8n driver's processes (see README.md beside this file): every child is a process-group leader, watched
 * by a detached guard, and killed with its group on stop(), on timeout and when this Node process exits.
 */
const { spawn } = require('node:child_process');

/**
 * @typedef {{ code: number | null, signal: string | null, stdout: string, stderr: string, durationMs: number,
 *   timedOut: boolean }} CliResult
 */

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  };
  process.on('exit', killAll);
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(sig, () => {
      killAll();
      process.kill(process.pid, sig);
    });
  }
}

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} sig */
function killGroup(child, sig) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Starts a tiny detached watchdog that kills the child's process group if this Node process dies without
 * running its exit hooks (e.g. a jest worker killed with SIGKILL). It ends by itself when the group is gone.
 * @param {import('node:child_process').ChildProcess} child
 */
function guard(child) {
  if (child.pid === undefined) return;
  const script =
    'while kill -0 "$1" 2>/dev/null && kill -0 -- "-$2" 2>/dev/null; do sleep 1; done; ' +
    'kill -0 -- "-$2" 2>/dev/null || exit 0; kill -TERM -- "-$2" 2>/dev/null; sleep 5; kill -KILL -- "-$2" 2>/dev/null; exit 0';
  const g = spawn('bash', ['-c', script, 'cm-n8n-guard', String(process.pid), String(child.pid)], {
    detached: true,
    stdio: 'ignore',
  });
  g.unref();
}

/**
 * Spawns a command as the leader of its own process group, known to the exit hook (the caller removes it from
 * `live` when it exits) and watched by a guard.
 * @param {string} cmd @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, stdin?: 'pipe' | 'ignore' }} [opts]
 */
function spawnGroup(cmd, args, opts = {}) {
  installExitHook();
  const child = spawn(cmd, args, {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    detached: true,
    stdio: [opts.stdin ?? 'pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  guard(child);
  return child;
}

/**
 * A long-running child (`n8n start`, `n8n worker`, postgres, redis) in its own process group: its output collected,
 * and a stop that asks it to end (SIGTERM), kills the group after 10 s, then kills what is left in the group (n8n's
 * task runners).
 * @param {string} cmd @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, echo?: boolean }} [opts] echo: copy its output to our stderr
 * @returns {{ pid: number | undefined, output: () => string, exitCode: () => number | null | undefined,
 *   exited: Promise<number | null>, stop: () => Promise<void> }}
 */
function startLongRunning(cmd, args, opts = {}) {
  const child = spawnGroup(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdin: 'ignore' });
  let output = '';
  const collect = (/** @type {Buffer} */ d) => {
    output += d;
    if (opts.echo) process.stderr.write(d);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  /** @type {number | null | undefined} */
  let exitCode;
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      live.delete(child);
      resolve(code);
    }),
  );
  const stop = async () => {
    if (exitCode === undefined) {
      killGroup(child, 'SIGTERM');
      const t = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
    killGroup(child, 'SIGKILL');
  };
  return { pid: child.pid, output: () => output, exitCode: () => exitCode, exited, stop };
}

/**
 * Spawns a command in its own process group, collects output; kills the group on timeout.
 * @param {string} cmd @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number, input?: string, echo?: boolean | 'stderr' }} [opts]
 *   echo: copy the child's output to our stderr (true: both streams, 'stderr': its stderr only)
 * @returns {Promise<CliResult>}
 */
function run(cmd, args, opts = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawnGroup(cmd, args, { env: opts.env, cwd: opts.cwd });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d) => {
      stdout += d;
      if (opts.echo === true) process.stderr.write(d);
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.stdin?.end(opts.input ?? '');
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup(child, 'SIGTERM');
            setTimeout(() => killGroup(child, 'SIGKILL'), 3000).unref();
          }, opts.timeoutMs);
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      live.delete(child);
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      live.delete(child);
      // A CLI that exited may leave children (task runners) in its group: make sure they are gone.
      killGroup(child, 'SIGKILL');
      resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
  });
}

/** @param {string} s @param {number} n */
function tail(s, n) {
  return s.split('\n').slice(-n).join('\n');
}

module.exports = { live, killGroup, spawnGroup, startLongRunning, run, tail };
