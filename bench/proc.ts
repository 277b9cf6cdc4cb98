// CPU time and resident memory of a child process tree, read from Linux's /proc: the bench's hosts run as
// `npx tsx ...`, so the process doing the work is a grandchild of the one we spawned. CPU time is counted by the
// kernel per process (user + system), so it does not depend on how busy the rest of the machine is.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

interface ProcInfo {
  pid: number;
  ppid: number;
  /** utime + stime, ms. */
  cpuMs: number;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(f[1]), cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S };
  } catch {
    return null; // gone meanwhile
  }
}

/** The process and all its descendants alive now. */
function tree(rootPid: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) {
    let list = children.get(p.ppid);
    if (!list) children.set(p.ppid, (list = []));
    list.push(p);
  }
  const out: ProcInfo[] = [];
  const rootInfo = all.find((p) => p.pid === rootPid);
  const queue = rootInfo ? [rootInfo] : [];
  while (queue.length) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/**
 * The process doing the work in a `npx tsx …` tree: the deepest `node` in it (npx starts tsx, which starts node on the
 * sources; tsx's esbuild service below it is not node); the root itself when it is the only one (a host started as
 * `node --import tsx …`).
 */
export function leafPid(rootPid: number): number {
  const depth = new Map<number, number>();
  let leaf = rootPid;
  let leafDepth = -1;
  for (const p of tree(rootPid)) {
    const d = p.pid === rootPid ? 0 : (depth.get(p.ppid) ?? 0) + 1;
    depth.set(p.pid, d);
    if (d > leafDepth && commOf(p.pid) === 'node') {
      leaf = p.pid;
      leafDepth = d;
    }
  }
  return leaf;
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** CPU time (user + system, ms) used so far by the tree's live processes. */
export function treeCpuMs(rootPid: number): number {
  return tree(rootPid).reduce((sum, p) => sum + p.cpuMs, 0);
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Resident memory (MB) of the tree's largest process: the host itself, not the `npx` and `tsx` launchers above it,
 * which only wait for it.
 */
export function hostRssMb(rootPid: number): number {
  return Math.max(0, ...tree(rootPid).map((p) => rssMb(p.pid)));
}

/** Least-squares slope of y over x (units of y per unit of x); 0 with fewer than two points. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Theil-Sen line through the points: the median of the slopes between every pair, and the median intercept for it.
 * Resident memory under a garbage collector rises and falls by tens of MB as the heap grows and is collected; a
 * least-squares fit over a short soak follows whichever swing the soak ends in, the median does not.
 */
export function theilSen(points: ReadonlyArray<readonly [number, number]>): {
  slope: number;
  at: (x: number) => number;
} {
  const median = (xs: number[]) => {
    if (!xs.length) return 0;
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j]![0] - points[i]![0];
      if (dx !== 0) slopes.push((points[j]![1] - points[i]![1]) / dx);
    }
  }
  const m = median(slopes);
  const b = median(points.map(([x, y]) => y - m * x));
  return { slope: m, at: (x) => b + m * x };
}
