// Writes resources/icon.png (512 px, the size electron-builder needs to derive the .icns and .ico) from the same
// drawing code the running app uses, so the installer icon and the window icon cannot drift apart.
// Run: npx tsx resources/make-icons.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appIconPng } from '../src/main/icons';

const here = path.dirname(fileURLToPath(import.meta.url));
writeFileSync(path.join(here, 'icon.png'), appIconPng(512));
