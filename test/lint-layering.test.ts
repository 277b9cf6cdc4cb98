// The layering rule bites: forbidden imports fail lint, allowed ones pass.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve(__dirname, '..') });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(__dirname, '..', file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'oddsdesk/layers').map((m) => m.message);
}

describe('layering lint rule', () => {
  it('fails a file in src/core that imports electron', async () => {
    const errors = await layerErrors('src/core/probe.ts', "import { app } from 'electron';\nexport const x = app;\n");
    expect(errors).toEqual(['src/core may not import electron']);
  });

  it('fails a file in src/renderer that imports src/core', async () => {
    const errors = await layerErrors(
      'src/renderer/src/probe.ts',
      "import { createCore } from '../../core/core';\nexport const x = createCore;\n",
    );
    expect(errors).toEqual(['src/renderer may not import src/core (allowed: renderer, shared)']);
  });

  it('fails shared code that imports Node or anything of ours outside shared', async () => {
    expect(await layerErrors('src/shared/probe.ts', "import fs from 'node:fs';\nexport const x = fs;\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('src/shared/probe.ts', "export { createCore } from '../core/core';\n")).toHaveLength(1);
  });

  it('fails the preload importing the core, and the renderer importing electron', async () => {
    expect(await layerErrors('src/preload/probe.ts', "import '../core/core';\n")).toHaveLength(1);
    expect(
      await layerErrors(
        'src/renderer/src/probe.ts',
        "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n",
      ),
    ).toHaveLength(1);
  });

  it('passes the imports the architecture allows', async () => {
    expect(
      await layerErrors('src/core/probe.ts', "import { PATHS } from '../shared/api';\nexport const x = PATHS;\n"),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/main/probe.ts',
        "import { app } from 'electron';\nimport { createCore } from '../core/core';\nexport const x = [app, createCore];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/renderer/src/probe.ts',
        "import { PATHS } from '../../shared/api';\nexport const x = PATHS;\n",
      ),
    ).toEqual([]);
  });
});
