// The layering lint (eslint/layering.js) bites where the issue says it must: the core's rooms are ordered, Node-only
// packages stay out of the renderer, preload and shared code, import cycles fail, only the engine module and the
// files that build engines import createEngine, and the answer does not depend on the working directory. Each case
// lints through the repository's own ESLint config, so it also shows the rule is wired in.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it, vi } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const config = path.join(repo, 'eslint.config.js');
const onlyLayers = ({ ruleId }: { ruleId: string }) => ruleId === 'oddsdesk/layers';

function lint(cwd = repo): ESLint {
  return new ESLint({ cwd, overrideConfigFile: config, ruleFilter: onlyLayers });
}

async function layerErrors(file: string, code: string, eslint = lint()): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).map((m) => m.message);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('layering lint: the core rooms', () => {
  it('fails the store importing the monitor, and any room importing one of its own tier or above', async () => {
    const storeToMonitor = await layerErrors(
      'src/core/store/probe.ts',
      "import { createMonitor } from '../monitor';\nexport const x = createMonitor;\n",
    );
    expect(storeToMonitor).toHaveLength(1);
    expect(storeToMonitor[0]).toMatch(
      /^src\/core\/store may not import src\/core\/monitor: a core room imports only rooms below it/,
    );
    // A type is knowledge of the room too: the store may not know the monitor's shapes either.
    expect(
      await layerErrors(
        'src/core/store/probe.ts',
        "import type { Monitor } from '../monitor';\nexport type X = Monitor;\n",
      ),
    ).toHaveLength(1);
    // Same tier: the store and the api never import each other.
    expect(
      await layerErrors(
        'src/core/api/probe.ts',
        "import { openStore } from '../store';\nexport const x = openStore;\n",
      ),
    ).toHaveLength(1);
    // The monitor may not reach up to the handlers, nor the engine to the session that drives it.
    expect(
      await layerErrors('src/core/monitor/probe.ts', "export { storeHandlers } from '../handlers/store';\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/core/engine.ts',
        "import { createSession } from './session';\nexport const x = createSession;\n",
      ),
    ).toHaveLength(1);
    // A room that is not in the order cannot take part until it is given a place.
    expect(
      await layerErrors(
        'src/core/widgets/probe.ts',
        "import { openStore } from '../store';\nexport const x = openStore;\n",
      ),
    ).toEqual([
      "src/core/widgets has no place in the core's room order (CORE_TIERS in eslint/layering.js): give it a tier before src/core/widgets imports src/core/store",
    ]);
  });

  it('passes imports down the order', async () => {
    expect(
      await layerErrors(
        'src/core/monitor/probe.ts',
        "import { openStore } from '../store';\nimport { realClock } from '../clock';\nexport const x = [openStore, realClock];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/core/handlers/probe.ts',
        "import { createMonitor } from '../monitor';\nimport { createPushes } from '../pushes';\nexport const x = [createMonitor, createPushes];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/core/store/probe.ts',
        "import { lookupAllowed } from '../budget';\nexport const x = lookupAllowed;\n",
      ),
    ).toEqual([]);
  });
});

describe('layering lint: Node-only code', () => {
  it('fails the renderer importing better-sqlite3 or a Node built-in', async () => {
    const errors = await layerErrors(
      'src/renderer/src/probe.ts',
      "import Database from 'better-sqlite3';\nimport { readFileSync } from 'node:fs';\nexport const x = [Database, readFileSync];\n",
    );
    expect(errors).toEqual([
      'src/renderer is not Node code and may not import better-sqlite3: it runs only under Node',
      'src/renderer is not Node code and may not import node:fs',
    ]);
  });

  it('fails Node-only packages in shared code and the sandboxed preload, and keeps the browser-safe ones', async () => {
    expect(
      await layerErrors('src/shared/probe.ts', "import { WebSocket } from 'ws';\nexport const x = WebSocket;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('src/preload/probe.ts', "import keytar from 'keytar';\nexport const x = keytar;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('src/renderer/src/probe.ts', "import { fetch } from 'undici';\nexport const x = fetch;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/renderer/src/probe.ts',
        "import { create } from 'zustand';\nimport { z } from 'zod';\nimport uPlot from 'uplot';\nimport { useVirtualizer } from '@tanstack/react-virtual';\nexport const x = [create, z, uPlot, useVirtualizer];\n",
      ),
    ).toEqual([]);
    // The core is Node code: the same packages are its to use.
    expect(
      await layerErrors('src/core/probe.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n"),
    ).toEqual([]);
  });
});

describe('layering lint: import cycles', () => {
  it('fails modules that import each other, directly or through another; type-only imports do not count', async () => {
    // Real files, because a cycle is a fact about several files on disk; a dot-folder, so tsc's globs skip it.
    const dir = path.join(repo, 'src', 'shared', `.cycle-probe-${process.pid}-${Date.now()}`);
    const rel = (name: string) => path.relative(repo, path.join(dir, name)).split(path.sep).join('/');
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b();\n");
      writeFileSync(path.join(dir, 'b.ts'), "import { c } from './c';\nexport const b = () => c();\n");
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = () => a;\n");
      // The slice pattern: a value one way, only a type back. Erased before run time, so no loop.
      writeFileSync(
        path.join(dir, 'slice.ts'),
        "import type { State } from './state';\nexport const slice = (s: State) => s.n;\n",
      );
      writeFileSync(
        path.join(dir, 'state.ts'),
        "import { slice } from './slice';\nexport interface State { n: number }\nexport const read = slice;\n",
      );

      const results = await lint().lintFiles([dir]);
      const byFile = Object.fromEntries(
        results.map((r) => [path.basename(r.filePath), r.messages.map((m) => m.message)]),
      );
      expect(byFile['a.ts']).toEqual([
        expect.stringContaining(`import cycle: ${rel('a.ts')} → ${rel('b.ts')} → ${rel('c.ts')} → ${rel('a.ts')}`),
      ]);
      expect(byFile['b.ts']).toEqual([
        expect.stringContaining(`import cycle: ${rel('b.ts')} → ${rel('c.ts')} → ${rel('a.ts')} → ${rel('b.ts')}`),
      ]);
      expect(byFile['c.ts']).toEqual([
        expect.stringContaining(`import cycle: ${rel('c.ts')} → ${rel('a.ts')} → ${rel('b.ts')} → ${rel('c.ts')}`),
      ]);
      expect(byFile['slice.ts']).toEqual([]);
      expect(byFile['state.ts']).toEqual([]);

      // Breaking the loop is seen at once (the graph is re-read when a file changes), with the text being linted
      // standing for the file on disk.
      expect(await layerErrors(rel('c.ts'), 'export const c = () => 1;\n')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('layering lint: one engine factory', () => {
  it('fails createEngine imported or defined outside the engine module and the files that build engines', async () => {
    expect(
      await layerErrors(
        'src/main/probe.ts',
        "import { createEngine } from '../core/engine';\nexport const x = createEngine;\n",
      ),
    ).toEqual([
      'src/main/probe.ts may not import createEngine: there is one engine factory, and only src/core/core.ts and src/cli/record.ts build engines with it (hosts go through the session)',
    ]);
    expect(
      await layerErrors(
        'src/core/handlers/probe.ts',
        "import * as engine from '../engine';\nexport const x = engine;\n",
      ),
    ).toHaveLength(1);
    expect(await layerErrors('src/cli/probe.ts', "export { createEngine } from '../core/engine';\n")).toHaveLength(1);
    expect(await layerErrors('src/core/session.ts', 'export function createEngine(): void {}\n')).toEqual([
      'createEngine is defined once, in src/core/engine.ts: there is one engine factory',
    ]);
  });

  it('passes the engine module, the builders, and type-only use', async () => {
    expect(
      await layerErrors(
        'src/core/core.ts',
        "import { createEngine } from './engine';\nexport const x = createEngine;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/cli/record.ts',
        "import { createEngine } from '../core/engine';\nexport const x = createEngine;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors('src/core/session.ts', "import type { Engine } from './engine';\nexport type X = Engine;\n"),
    ).toEqual([]);
  });
});

describe('layering lint: the working directory', () => {
  it('says the same from another directory as from the repository root', async () => {
    const cases: Array<[string, string]> = [
      ['src/core/store/probe.ts', "import { createMonitor } from '../monitor';\nexport const x = createMonitor;\n"],
      [
        'src/renderer/src/probe.ts',
        "import { ipcRenderer } from 'electron';\nimport Database from 'better-sqlite3';\nexport const x = [ipcRenderer, Database];\n",
      ],
      ['src/renderer/src/probe.ts', "import { createCore } from '../../core/core';\nexport const x = createCore;\n"],
    ];
    const fromRoot = await Promise.all(cases.map(([file, code]) => layerErrors(file, code)));
    expect(fromRoot.every((errors) => errors.length > 0)).toBe(true);

    vi.spyOn(process, 'cwd').mockReturnValue(os.tmpdir());
    const elsewhere = lint(path.join(repo, 'src'));
    const fromElsewhere = await Promise.all(cases.map(([file, code]) => layerErrors(file, code, elsewhere)));
    expect(fromElsewhere).toEqual(fromRoot);
  });
});

describe('layering lint: the tree as it is', () => {
  it('passes every file under src/', { timeout: 180_000 }, async () => {
    const results = await lint().lintFiles(['src']);
    expect(results.length).toBeGreaterThan(100);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(repo, r.filePath)}:${m.line} ${m.message}`),
    );
    expect(problems).toEqual([]);
  });
});
