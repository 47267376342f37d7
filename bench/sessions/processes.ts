// What the processes of a run cost, read from /proc (Linux): the Deno function's memory (RSS), and
// the CPU time of Deno, of Postgres and of this process (the load generator or the floor's driver).
// Read from outside, so the function's code stays untouched.
import { readdir, readFile } from 'node:fs/promises';

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

// USER_HZ: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK) is not reachable from Node).
export const TICKS_PER_SECOND = 100;

export async function readProc(pid: number): Promise<Proc | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The name sits in parentheses and may hold spaces: the fields after it are split by spaces.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(fields[1]), name, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Every process below this one (children, their children, ...). */
export async function descendants(): Promise<Proc[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const all = (await Promise.all(pids.map(readProc))).filter((p): p is Proc => p !== undefined);
  const below = new Set([process.pid]);
  const found: Proc[] = [];
  // Parents have lower pids almost always, but not after wrap-around: repeat until nothing is added.
  for (let added = true; added;) {
    added = false;
    for (const p of all) {
      if (below.has(p.ppid) && !below.has(p.pid)) {
        below.add(p.pid);
        found.push(p);
        added = true;
      }
    }
  }
  return found;
}

/** The one child process called `name` (the Deno function: node_modules/.bin/deno is the binary). */
export async function childNamed(name: string): Promise<number> {
  const matches = (await descendants()).filter((p) => p.name === name && p.ppid === process.pid);
  if (matches.length !== 1) throw new Error(`expected one child process named ${name}, found ${matches.length}`);
  return matches[0].pid;
}

/** Resident set size of `pid`, in MiB (VmRSS). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib[1]) / 1024;
}

export interface CpuShare {
  deno: number;
  postgres: number;
  node: number;
  /** Everything else on the machine (other users' tests, the kernel): noise in the figures. */
  other: number;
}

/** Busy time of the whole machine, in clock ticks (every CPU, /proc/stat). */
async function machineBusyTicks(): Promise<number> {
  const [, ...fields] = (await readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  return fields.slice(0, 8).reduce((sum, v) => sum + v, 0) - fields[3] - fields[4];
}

/**
 * Starts counting CPU time; the returned function gives the cores each side kept busy since
 * (1.0 = one core all the time). Postgres is every postgres process below this one.
 */
export async function cpuMeter(denoPid: number): Promise<() => Promise<CpuShare>> {
  const snapshot = async () => {
    const procs = await descendants();
    const self = process.cpuUsage();
    return {
      at: process.hrtime.bigint(),
      busy: await machineBusyTicks(),
      deno: procs.find((p) => p.pid === denoPid)?.ticks ?? 0,
      postgres: new Map(procs.filter((p) => p.name === 'postgres').map((p) => [p.pid, p.ticks])),
      node: (self.user + self.system) / 1e6,
    };
  };
  const start = await snapshot();
  return async () => {
    const end = await snapshot();
    const seconds = Number(end.at - start.at) / 1e9;
    // Per process, so a backend that closed meanwhile takes nothing away; one that opened counts whole.
    let postgres = 0;
    for (const [pid, ticks] of end.postgres) postgres += ticks - (start.postgres.get(pid) ?? 0);
    const share = {
      deno: (end.deno - start.deno) / TICKS_PER_SECOND / seconds,
      postgres: postgres / TICKS_PER_SECOND / seconds,
      node: (end.node - start.node) / seconds,
    };
    const busy = (end.busy - start.busy) / TICKS_PER_SECOND / seconds;
    return { ...share, other: Math.max(0, busy - share.deno - share.postgres - share.node) };
  };
}
