// The Electron version the stand-in plays: the one installed (its binary is not), as `process.versions.electron`
// would say inside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const STAND_IN_ELECTRON = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../../node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
