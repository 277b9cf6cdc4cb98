// The application menu. Only standard roles and app-level commands live here; switching views (single letters,
// Ctrl/Cmd+K) belongs to the renderer, so no menu accelerator competes with its keys. Reload and the developer
// tools exist only in development: in a packaged app they would let anyone at the desk poke at a live session.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  isMac: boolean;
  isDev: boolean;
  onAbout: () => void;
}

export function menuTemplate({ appName, isMac, isDev, onAbout }: MenuOptions): MenuItemConstructorOptions[] {
  const about: MenuItemConstructorOptions = { label: `About ${appName}`, click: onAbout };
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        about,
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    { label: '&File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        ...(isDev
          ? ([
              { role: 'reload' },
              { role: 'forceReload' },
              { role: 'toggleDevTools' },
              { type: 'separator' },
            ] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Window',
      submenu: isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    { label: '&Help', role: 'help', submenu: isMac ? [{ label: `${appName} Help`, enabled: false }] : [about] },
  );
  return template;
}
