// A stand-in for the parts of the `electron` module that src/main/*.ts uses, for running the desktop composition
// root (src/main/index.ts) under plain Node, where Electron's binary cannot run. It is the one substitute the
// desktop-wiring test allows itself, so it follows Electron's documented behaviour wherever our code depends on it:
//  - app: 'ready' comes after the main script's synchronous part (on the first whenReady()); enableSandbox,
//    registerSchemesAsPrivileged only before it; session, screen, powerMonitor, protocol.handle and dialogs only
//    after it; quit() emits 'before-quit' (preventable), closes every window (each 'close' preventable, cancelling the
//    quit), then 'will-quit' and 'quit'; 'window-all-closed' comes only when windows closed otherwise.
//  - BrowserWindow: 'close' can be prevented; a destroyed window or webContents throws "Object has been destroyed";
//    every new web contents is announced with app 'web-contents-created'.
//  - ipcMain.handle: one handler per channel (a second throws); invoke arguments and results are structured-cloned, as
//    IPC serialises them; the event names the sender web contents and the sending frame (url, parent).
//  - net.request: a ClientRequest over Node's real http/https: 'response' with an IncomingMessage (a Readable; headers
//    lowercased, Electron's duplicate rules), 'redirect' (statusCode, method, redirectUrl, responseHeaders) and, with
//    `redirect: 'manual'`, the request cancelled with the error "Redirect was cancelled" unless followRedirect() is
//    called synchronously in that event; 'error' then 'close'; network faults as Chromium's net::ERR_* messages.
//  - session.fetch / net.fetch: fetch over that ClientRequest, as Electron builds it: with `redirect: 'manual'` a
//    redirect REJECTS ("Redirect was cancelled") instead of returning the 3xx.
//  - Notification records what would show (`isSupported()` can be switched off), Tray and Menu keep what they were
//    given (a tray menu item can be clicked), dialog answers with what the test chooses.
// No page runs: a window "loads" its URL (did-finish-load, ready-to-show) and the test plays the page through
// `page(win).invoke(...)`, which does what src/preload/index.ts does: `ipcRenderer.invoke(channel, args)`.
// The preload itself runs with its real source in one frame once `preloadIn(win)` names it: its `contextBridge`
// exposes into `mainWorld` (values copied, functions kept callable, as Electron proxies them; a name bound twice
// throws) and its `ipcRenderer` invokes, listens and sends as that frame (invoke and send structured-cloned).
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import http, { validateHeaderName, validateHeaderValue } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ClientRequestConstructorOptions } from 'electron';

const root = path.resolve(__dirname, '../../..');

/** Electron's Event: what a listener may prevent. */
export class StandInEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

function destroyedError(): TypeError {
  return new TypeError('Object has been destroyed');
}

// ---------------------------------------------------------------- frames, web contents, windows

/** Electron's WebFrameMain, as far as a sender check reads it. */
export interface StandInFrame {
  url: string;
  /** null for the top frame. */
  parent: StandInFrame | null;
  top: StandInFrame;
  name: string;
}

let nextWebContentsId = 1;

export class StandInWebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  /** Everything sent to the page (`webContents.send`), already serialised as IPC would. */
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  readonly mainFrame: StandInFrame;
  private url = '';
  private loading = false;
  private destroyed = false;
  private readonly pageListeners = new Map<string, Set<(...args: unknown[]) => void>>();

  constructor(private readonly owner: StandInBrowserWindow | null) {
    super();
    const frame = { url: '', parent: null, name: '' } as unknown as StandInFrame;
    frame.top = frame;
    Object.defineProperty(frame, 'url', { get: () => this.url, enumerable: true });
    this.mainFrame = frame;
  }

  private alive(): void {
    if (this.destroyed) throw destroyedError();
  }

  getURL(): string {
    this.alive();
    return this.url;
  }

  isLoading(): boolean {
    this.alive();
    return this.loading;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.alive();
    this.windowOpenHandler = handler;
  }

  send(channel: string, ...args: unknown[]): void {
    this.alive();
    const copy = structuredClone(args);
    this.sent.push({ channel, args: copy });
    for (const l of this.pageListeners.get(channel) ?? []) l(...copy);
  }

  /** The page's `ipcRenderer.on(channel, ...)`: what `send` delivers (without the event argument). */
  onPageMessage(channel: string, listener: (...args: unknown[]) => void): () => void {
    let set = this.pageListeners.get(channel);
    if (!set) this.pageListeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Loads a URL: no page runs, but the events and the frame's URL are Electron's. */
  loadURL(url: string): Promise<void> {
    this.alive();
    this.loading = true;
    this.emit('did-start-loading');
    return new Promise((resolve) => {
      setImmediate(() => {
        if (this.destroyed) return resolve();
        this.url = url;
        this.loading = false;
        this.emit('dom-ready', new StandInEvent());
        this.emit('did-finish-load', new StandInEvent());
        this.emit('did-stop-loading', new StandInEvent());
        this.owner?.pageLoaded();
        resolve();
      });
    });
  }

  /** Something in the page asks for a new window (window.open, a target=_blank link): what the handler decides. */
  requestNewWindow(url: string): 'allow' | 'deny' {
    return this.windowOpenHandler?.({ url }).action ?? 'allow';
  }

  /** The page navigates by itself (a link, location.href): false when a 'will-navigate' listener prevented it. */
  navigate(url: string): boolean {
    const e = new StandInEvent();
    this.emit('will-navigate', e, url);
    if (e.defaultPrevented) return false;
    this.url = url;
    return true;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

let nextWindowId = 1;

export class StandInBrowserWindow extends EventEmitter {
  static readonly all: StandInBrowserWindow[] = [];
  static getAllWindows(): StandInBrowserWindow[] {
    return [...StandInBrowserWindow.all];
  }
  static fromWebContents(contents: unknown): StandInBrowserWindow | null {
    return StandInBrowserWindow.all.find((w) => w.webContents === contents) ?? null;
  }
  static getFocusedWindow(): StandInBrowserWindow | null {
    return StandInBrowserWindow.all.find((w) => w.focused) ?? null;
  }

  readonly id = nextWindowId++;
  readonly webContents: StandInWebContents;
  readonly options: Record<string, unknown>;
  focused = false;
  private visible: boolean;
  private destroyed = false;
  private minimized = false;
  private maximized = false;
  private title: string;
  private bounds: Rectangle;
  private shownOnce = false;
  private readyToShowSent = false;

  constructor(options: Record<string, unknown> = {}) {
    super();
    const app = currentApp();
    if (!app.isReady()) throw new Error('Cannot create BrowserWindow before app is ready');
    this.options = options;
    this.webContents = new StandInWebContents(this);
    this.visible = options['show'] !== false;
    this.title = typeof options['title'] === 'string' ? options['title'] : 'Electron';
    this.bounds = {
      x: typeof options['x'] === 'number' ? options['x'] : 0,
      y: typeof options['y'] === 'number' ? options['y'] : 0,
      width: typeof options['width'] === 'number' ? options['width'] : 800,
      height: typeof options['height'] === 'number' ? options['height'] : 600,
    };
    StandInBrowserWindow.all.push(this);
    app.emit('browser-window-created', new StandInEvent(), this);
    app.emit('web-contents-created', new StandInEvent(), this.webContents);
    if (this.visible) this.shownOnce = true;
  }

  private alive(): void {
    if (this.destroyed) throw destroyedError();
  }

  /** The first load of a window not shown yet: 'ready-to-show', once. */
  pageLoaded(): void {
    if (this.destroyed || this.readyToShowSent || this.shownOnce) return;
    this.readyToShowSent = true;
    this.emit('ready-to-show');
  }

  loadURL(url: string): Promise<void> {
    this.alive();
    return this.webContents.loadURL(url);
  }

  show(): void {
    this.alive();
    this.shownOnce = true;
    this.focused = true;
    if (this.visible) return;
    this.visible = true;
    this.minimized = false;
    this.emit('show');
  }

  hide(): void {
    this.alive();
    this.focused = false;
    if (!this.visible) return;
    this.visible = false;
    this.emit('hide');
  }

  focus(): void {
    this.alive();
    this.focused = true;
    this.emit('focus');
  }

  isFocused(): boolean {
    this.alive();
    return this.focused;
  }

  isVisible(): boolean {
    this.alive();
    return this.visible;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  isMinimized(): boolean {
    this.alive();
    return this.minimized;
  }

  minimize(): void {
    this.alive();
    this.minimized = true;
    this.emit('minimize');
  }

  restore(): void {
    this.alive();
    this.minimized = false;
    this.emit('restore');
  }

  maximize(): void {
    this.alive();
    this.maximized = true;
    this.emit('maximize');
  }

  unmaximize(): void {
    this.alive();
    this.maximized = false;
    this.emit('unmaximize');
  }

  isMaximized(): boolean {
    this.alive();
    return this.maximized;
  }

  getBounds(): Rectangle {
    this.alive();
    return { ...this.bounds };
  }

  getNormalBounds(): Rectangle {
    this.alive();
    return { ...this.bounds };
  }

  setBounds(bounds: Partial<Rectangle>): void {
    this.alive();
    this.bounds = { ...this.bounds, ...bounds };
    this.emit('resize');
    this.emit('move');
  }

  setTitle(title: string): void {
    this.alive();
    this.title = title;
  }

  getTitle(): string {
    this.alive();
    return this.title;
  }

  /** Like the trader clicking the close button: 'close' may be prevented; otherwise the window goes. */
  close(): void {
    if (this.destroyed) return;
    const e = new StandInEvent();
    this.emit('close', e);
    if (e.defaultPrevented) return;
    this.finish();
  }

  /** Closes at once, with no 'close' event (Electron's destroy). */
  destroy(): void {
    if (this.destroyed) return;
    this.finish();
  }

  private finish(): void {
    this.destroyed = true;
    this.visible = false;
    this.focused = false;
    const all = StandInBrowserWindow.all;
    all.splice(all.indexOf(this), 1);
    this.emit('closed');
    this.webContents.destroy();
    const app = currentApp();
    if (all.length === 0 && !app.closingWindowsForQuit) {
      // With no listener, Electron's default is to quit.
      if (app.listenerCount('window-all-closed') === 0) app.quit();
      else app.emit('window-all-closed');
    }
  }
}

// ---------------------------------------------------------------- app

const singleInstanceLocks = new Set<string>();
let activeApp: StandInApp | null = null;
function currentApp(): StandInApp {
  if (!activeApp) throw new Error('no stand-in app');
  return activeApp;
}

export class StandInApp extends EventEmitter {
  isPackaged = false;
  /** Calls of app.quit(), and whether the app got as far as 'quit' (it would exit there). */
  quitCalls = 0;
  quitEmitted = false;
  exitCode: number | null = null;
  sandboxed = false;
  appUserModelId: string | null = null;
  closingWindowsForQuit = false;
  private ready = false;
  private readyScheduled = false;
  private readonly readyPromise: Promise<void>;
  private resolveReady!: () => void;
  private readonly paths = new Map<string, string>();
  private lockedPath: string | null = null;

  constructor(
    private readonly base: string,
    private readonly appPath: string,
    private readonly version: string,
  ) {
    super();
    this.readyPromise = new Promise((r) => (this.resolveReady = r));
    for (const name of [
      'home',
      'appData',
      'temp',
      'downloads',
      'desktop',
      'documents',
      'music',
      'pictures',
      'videos',
      'logs',
      'crashDumps',
    ]) {
      this.paths.set(name, path.join(base, name));
    }
    this.paths.set('userData', path.join(base, 'appData', 'Oddsdesk'));
    this.paths.set('exe', path.join(base, 'electron'));
  }

  /** Electron's app becomes ready once the main script's synchronous part has run. */
  whenReady(): Promise<void> {
    if (!this.readyScheduled) {
      this.readyScheduled = true;
      setImmediate(() => {
        this.ready = true;
        this.emit('will-finish-launching');
        this.emit('ready', new StandInEvent(), {});
        this.resolveReady();
      });
    }
    return this.readyPromise;
  }

  isReady(): boolean {
    return this.ready;
  }

  getPath(name: string): string {
    if (name === 'sessionData') return this.paths.get('sessionData') ?? this.getPath('userData');
    const p = this.paths.get(name);
    if (p === undefined) throw new Error(`Failed to get '${name}' path`);
    return p;
  }

  setPath(name: string, p: string): void {
    if (!path.isAbsolute(p)) throw new Error(`Path must be absolute: ${p}`);
    this.paths.set(name, p);
  }

  getVersion(): string {
    return this.version;
  }

  getName(): string {
    return 'oddsdesk';
  }

  getAppPath(): string {
    return this.appPath;
  }

  getLocale(): string {
    return 'en-US';
  }

  requestSingleInstanceLock(): boolean {
    const key = this.getPath('userData');
    if (this.lockedPath === key) return true;
    if (singleInstanceLocks.has(key)) return false;
    singleInstanceLocks.add(key);
    this.lockedPath = key;
    return true;
  }

  releaseSingleInstanceLock(): void {
    if (this.lockedPath) singleInstanceLocks.delete(this.lockedPath);
    this.lockedPath = null;
  }

  enableSandbox(): void {
    if (this.ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    this.sandboxed = true;
  }

  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }

  focus(): void {}

  /**
   * Electron's order: 'before-quit' (preventable), every window closed (a prevented 'close' cancels the quit),
   * 'will-quit' (preventable), 'quit'. 'window-all-closed' is not emitted on this path.
   */
  quit(): void {
    this.quitCalls++;
    if (this.quitEmitted) return;
    const before = new StandInEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    this.closingWindowsForQuit = true;
    try {
      for (const w of StandInBrowserWindow.getAllWindows()) w.close();
    } finally {
      this.closingWindowsForQuit = false;
    }
    if (StandInBrowserWindow.all.length > 0) return;
    const will = new StandInEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.quitEmitted = true;
    this.exitCode = 0;
    this.emit('quit', new StandInEvent(), 0);
    this.releaseSingleInstanceLock();
  }

  exit(code = 0): void {
    this.exitCode = code;
    this.quitEmitted = true;
    this.releaseSingleInstanceLock();
  }

  mustBeReady(what: string): void {
    if (!this.ready) throw new Error(`The '${what}' module can't be used before the app 'ready' event`);
  }
}

// ---------------------------------------------------------------- ipcMain

export interface StandInInvokeEvent {
  sender: StandInWebContents;
  senderFrame: StandInFrame | null;
  frameId: number;
  processId: number;
  type: 'frame';
}

type InvokeHandler = (event: StandInInvokeEvent, ...args: unknown[]) => unknown;

export class StandInIpcMain extends EventEmitter {
  readonly handlers = new Map<string, InvokeHandler>();

  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /**
   * What `ipcRenderer.invoke(channel, ...args)` in `frame` of `sender` reaches: the handler's answer, serialised as
   * IPC serialises it; a handler that throws rejects the page's promise, as Electron's does.
   */
  async invoke(
    sender: StandInWebContents,
    frame: StandInFrame | null,
    channel: string,
    ...args: unknown[]
  ): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler)
      throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    const event: StandInInvokeEvent = { sender, senderFrame: frame, frameId: 1, processId: 1, type: 'frame' };
    let value: unknown;
    try {
      value = await handler(event, ...structuredClone(args));
    } catch (e) {
      throw new Error(`Error invoking remote method '${channel}': ${String(e)}`);
    }
    return structuredClone(value);
  }
}

// ---------------------------------------------------------------- net: ClientRequest over Node's http

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Chromium's limit. */
const MAX_REDIRECTS = 20;
/** Electron's IncomingMessage keeps only the first of these when they repeat. */
const DISCARDABLE_DUPLICATES = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

function chromiumError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'net::ERR_CONNECTION_REFUSED';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'net::ERR_CONNECTION_RESET';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'net::ERR_NAME_NOT_RESOLVED';
    case 'ETIMEDOUT':
      return 'net::ERR_CONNECTION_TIMED_OUT';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'net::ERR_ADDRESS_UNREACHABLE';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'net::ERR_CERT_AUTHORITY_INVALID';
    default:
      return 'net::ERR_FAILED';
  }
}

/** Response headers as Chromium hands them to a 'redirect' listener: lowercased names, every value. */
function headerLists(raw: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) (out[raw[i]!.toLowerCase()] ??= []).push(raw[i + 1]!);
  return out;
}

/** Electron's IncomingMessage: a Readable with the status and headers of the answer. */
export class StandInIncomingMessage extends Readable {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly rawHeaders: string[];
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  readonly httpVersionMinor: number;
  /** What the Node response below it is reading (for backpressure). */
  private readonly source: http.IncomingMessage;

  constructor(source: http.IncomingMessage) {
    super();
    this.source = source;
    this.statusCode = source.statusCode ?? 0;
    this.statusMessage = source.statusMessage ?? '';
    this.rawHeaders = [...source.rawHeaders];
    this.httpVersion = source.httpVersion;
    this.httpVersionMajor = source.httpVersionMajor;
    this.httpVersionMinor = source.httpVersionMinor;
  }

  get headers(): Record<string, string | string[]> {
    const lists = headerLists(this.rawHeaders);
    const out: Record<string, string | string[]> = {};
    for (const [name, values] of Object.entries(lists)) {
      if (name === 'set-cookie') out[name] = values;
      else if (name === 'cookie') out[name] = values.join('; ');
      else out[name] = DISCARDABLE_DUPLICATES.has(name) ? values[0]! : values.join(', ');
    }
    return out;
  }

  override _read(): void {
    this.source.resume();
  }

  /** Node response bytes in, with backpressure. */
  feed(chunk: Buffer): void {
    if (!this.push(chunk)) this.source.pause();
  }
}

type RedirectPolicy = 'follow' | 'error' | 'manual';

let activeSessions: StandInSessions | null = null;

export class StandInClientRequest extends EventEmitter {
  private readonly url: URL;
  private readonly method: string;
  private readonly redirectPolicy: RedirectPolicy;
  private readonly headers = new Map<string, { name: string; value: string }>();
  private readonly body: Buffer[] = [];
  readonly session: StandInSession;
  private started = false;
  private aborted = false;
  private closed = false;
  private current: http.ClientRequest | null = null;
  private response: StandInIncomingMessage | null = null;
  private followRedirectCb: (() => void) | null = null;
  /** Every URL this request went to, redirects included (tests read it). */
  readonly urlList: string[] = [];

  constructor(options: ClientRequestConstructorOptions | string) {
    super();
    const o: ClientRequestConstructorOptions = typeof options === 'string' ? { url: options } : options;
    let urlText = o.url;
    if (!urlText) {
      const u = new URL(o.path ?? '/', 'http://localhost');
      urlText = `${o.protocol ?? 'http:'}//${o.host ?? `${o.hostname ?? 'localhost'}${o.port ? `:${o.port}` : ''}`}${u.pathname}${u.search}`;
    }
    this.url = new URL(urlText);
    if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:')
      throw new Error('ClientRequest only supports http: and https: protocols');
    const policy = o.redirect ?? 'follow';
    if (!['follow', 'error', 'manual'].includes(policy))
      throw new Error('redirect mode should be one of follow, error or manual');
    this.redirectPolicy = policy;
    this.method = (o.method ?? 'GET').toUpperCase();
    const sessions = activeSessions!;
    if (o.session) {
      if (!(o.session instanceof StandInSession))
        throw new TypeError('`session` should be an instance of the Session class');
      this.session = o.session;
    } else {
      this.session = o.partition ? sessions.fromPartition(o.partition) : sessions.defaultSession;
    }
    for (const [name, value] of Object.entries(o.headers ?? {}))
      this.setHeader(name, Array.isArray(value) ? value.join(', ') : value);
  }

  setHeader(name: string, value: string): void {
    if (this.started) throw new Error("Can't set headers after they are sent");
    try {
      validateHeaderName(name);
    } catch {
      throw new Error(`Invalid header name: '${name}'`);
    }
    try {
      validateHeaderValue(name, String(value));
    } catch {
      throw new Error(`Invalid value for header '${name}': '${value}'`);
    }
    this.headers.set(name.toLowerCase(), { name, value: String(value) });
  }

  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.value;
  }

  removeHeader(name: string): void {
    if (this.started) throw new Error("Can't remove headers after they are sent");
    this.headers.delete(name.toLowerCase());
  }

  write(chunk: string | Buffer, encoding?: BufferEncoding, callback?: () => void): void {
    if (this.closed) throw new Error('write after end');
    this.body.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    if (callback) process.nextTick(callback);
  }

  end(chunk?: string | Buffer, encoding?: BufferEncoding, callback?: () => void): this {
    if (chunk !== undefined) this.write(chunk, encoding);
    if (!this.started && !this.aborted) {
      this.started = true;
      this.emit('finish');
      this.send(this.url, this.method, 0);
    }
    if (callback) process.nextTick(callback);
    return this;
  }

  followRedirect(): void {
    if (!this.followRedirectCb) throw new Error('followRedirect() called, but was not waiting for a redirect');
    this.followRedirectCb();
  }

  /** Cancels the transaction: 'abort' and 'close'; an answer being read emits 'aborted'. */
  abort(): void {
    if (!this.aborted && !this.closed) process.nextTick(() => this.emit('abort'));
    this.aborted = true;
    this.die();
  }

  private die(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.current?.destroy();
    const response = this.response;
    if (response && !response.readableEnded && !response.destroyed) {
      if (error) response.destroy(error);
      else {
        response.emit('aborted');
        response.destroy();
      }
    }
    if (error) this.emit('error', error);
    process.nextTick(() => this.emit('close'));
  }

  private send(url: URL, method: string, hops: number): void {
    this.urlList.push(url.href);
    const body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : Buffer.concat(this.body);
    const headers: Record<string, string> = {};
    for (const { name, value } of this.headers.values()) headers[name] = value;
    if (body.length > 0) headers['Content-Length'] = String(body.length);
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers });
    this.current = req;
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (this.aborted || this.closed) return;
      this.die(new Error(chromiumError(e)));
    });
    req.on('response', (res) => {
      if (this.aborted || this.closed) {
        res.destroy();
        return;
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        res.resume();
        this.redirect(res, url, method, hops, status, location);
        return;
      }
      const incoming = new StandInIncomingMessage(res);
      this.response = incoming;
      res.on('data', (chunk: Buffer) => incoming.feed(chunk));
      res.on('end', () => {
        incoming.push(null);
        if (!this.closed) {
          this.closed = true;
          incoming.once('end', () => process.nextTick(() => this.emit('close')));
        }
      });
      res.on('close', () => {
        // Cut before its end: Chromium's URL loader fails the transfer.
        if (!res.complete && !this.closed) this.die(new Error('net::ERR_CONNECTION_RESET'));
      });
      this.emit('response', incoming);
    });
    req.end(body);
  }

  private redirect(
    res: http.IncomingMessage,
    from: URL,
    method: string,
    hops: number,
    status: number,
    location: string,
  ): void {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      this.die(new Error('net::ERR_INVALID_REDIRECT'));
      return;
    }
    if (hops >= MAX_REDIRECTS) {
      this.die(new Error('net::ERR_TOO_MANY_REDIRECTS'));
      return;
    }
    const newMethod =
      (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')
        ? 'GET'
        : method;
    if (this.redirectPolicy === 'error') {
      this.die(new Error("Attempted to redirect, but redirect policy was 'error'"));
      return;
    }
    const headers = headerLists(res.rawHeaders);
    let follow = this.redirectPolicy === 'follow';
    this.followRedirectCb = this.redirectPolicy === 'manual' ? () => (follow = true) : () => undefined;
    try {
      this.emit('redirect', status, newMethod, next.href, headers);
    } finally {
      this.followRedirectCb = null;
      if (!follow && !this.aborted) this.die(new Error('Redirect was cancelled'));
    }
    if (follow && !this.aborted && !this.closed) this.send(next, newMethod, hops + 1);
  }
}

// ---------------------------------------------------------------- session

export class StandInSession {
  onHeadersReceived:
    | ((
        details: { responseHeaders?: Record<string, string[]> },
        callback: (r: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void)
    | null = null;
  permissionRequestHandler:
    ((wc: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void) | null = null;
  permissionCheckHandler: ((wc: unknown, permission: string) => boolean) | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: StandInSession['onHeadersReceived']) => {
      this.onHeadersReceived = listener;
    },
  };

  constructor(readonly partition: string) {}

  setPermissionRequestHandler(handler: StandInSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: StandInSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler;
  }

  /**
   * Electron's session.fetch: a Request turned into a ClientRequest of this session with the Request's redirect
   * mode, resolved on 'response' and rejected on 'error'. So with `redirect: 'manual'` a redirect rejects with
   * "Redirect was cancelled": nothing listens to 'redirect' to follow it, and no 3xx is ever returned.
   */
  fetch(input: string | Request, init?: RequestInit): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      let req: Request;
      try {
        req = new Request(input, init);
      } catch (e) {
        reject(e);
        return;
      }
      const aborted = () => req.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
      if (req.signal.aborted) {
        reject(aborted());
        return;
      }
      let r: StandInClientRequest;
      try {
        r = new StandInClientRequest({
          session: this as never,
          method: req.method,
          url: req.url,
          redirect: req.redirect,
          cache: req.cache,
        });
      } catch (e) {
        reject(e);
        return;
      }
      let locallyAborted = false;
      req.signal.addEventListener(
        'abort',
        () => {
          locallyAborted = true;
          reject(aborted());
          r.abort();
        },
        { once: true },
      );
      for (const [name, value] of req.headers) r.setHeader(name, value);
      r.on('response', (resp: StandInIncomingMessage) => {
        if (locallyAborted) return;
        const headers = new Headers();
        for (const [name, value] of Object.entries(resp.headers))
          headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        const nullBody = [101, 204, 205, 304].includes(resp.statusCode) || req.method === 'HEAD';
        const body = nullBody ? null : (Readable.toWeb(resp) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { headers, status: resp.statusCode, statusText: resp.statusMessage }));
      });
      r.on('error', (e: Error) => reject(e));
      if (req.body) void req.arrayBuffer().then((b) => r.end(Buffer.from(b)), reject);
      else r.end();
    });
  }
}

class StandInSessions {
  private readonly partitions = new Map<string, StandInSession>();
  private readonly defaultOne = new StandInSession('');

  constructor(private readonly app: StandInApp) {}

  get defaultSession(): StandInSession {
    this.app.mustBeReady('session');
    return this.defaultOne;
  }

  fromPartition(partition: string): StandInSession {
    this.app.mustBeReady('session');
    if (partition === '') return this.defaultOne;
    let s = this.partitions.get(partition);
    if (!s) this.partitions.set(partition, (s = new StandInSession(partition)));
    return s;
  }
}

// ---------------------------------------------------------------- notifications, tray, menus, images

export class StandInNotification extends EventEmitter {
  static supported = true;
  static readonly shown: StandInNotification[] = [];
  static isSupported(): boolean {
    return StandInNotification.supported;
  }

  readonly title: string;
  readonly body: string;
  readonly silent: boolean;
  readonly icon: unknown;

  constructor(options: { title?: string; body?: string; silent?: boolean; icon?: unknown } = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
    this.silent = options.silent ?? false;
    this.icon = options.icon;
  }

  show(): void {
    StandInNotification.shown.push(this);
    this.emit('show', new StandInEvent());
  }

  close(): void {
    this.emit('close', new StandInEvent());
  }

  /** The trader clicks it. */
  click(): void {
    this.emit('click', new StandInEvent());
  }
}

export interface StandInMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  role?: string;
  click?: (item: StandInMenuItem, window: unknown, event: unknown) => void;
  submenu?: StandInMenu;
}

export class StandInMenu {
  static applicationMenu: StandInMenu | null = null;
  static buildFromTemplate(template: Array<Record<string, unknown>>): StandInMenu {
    return new StandInMenu(
      template.map((t) => {
        const sub = t['submenu'];
        const item = { enabled: true, ...t } as StandInMenuItem;
        if (Array.isArray(sub)) item.submenu = StandInMenu.buildFromTemplate(sub as Array<Record<string, unknown>>);
        return item;
      }),
    );
  }
  static setApplicationMenu(menu: StandInMenu | null): void {
    StandInMenu.applicationMenu = menu;
  }
  static getApplicationMenu(): StandInMenu | null {
    return StandInMenu.applicationMenu;
  }

  constructor(readonly items: StandInMenuItem[]) {}

  /** The item with this label, anywhere in the menu. */
  find(label: string): StandInMenuItem | null {
    for (const item of this.items) {
      if (item.label === label) return item;
      const inner = item.submenu?.find(label);
      if (inner) return inner;
    }
    return null;
  }

  /** The trader picks the item (a disabled one does nothing, as in a real menu). */
  click(label: string): void {
    const item = this.find(label);
    if (!item) throw new Error(`no menu item ${JSON.stringify(label)}`);
    if (item.enabled === false) return;
    item.click?.(item, null, {});
  }
}

export class StandInNativeImage {
  constructor(private readonly png: Buffer) {}
  isEmpty(): boolean {
    return this.png.length === 0;
  }
  toPNG(): Buffer {
    return this.png;
  }
  getSize(): { width: number; height: number } {
    // A PNG's IHDR: width and height at bytes 16-23.
    return this.png.length >= 24
      ? { width: this.png.readUInt32BE(16), height: this.png.readUInt32BE(20) }
      : { width: 0, height: 0 };
  }
}

export class StandInTray extends EventEmitter {
  static available = true;
  static readonly all: StandInTray[] = [];
  image: unknown;
  tooltip = '';
  contextMenu: StandInMenu | null = null;
  readonly balloons: Array<{ title: string; content: string }> = [];
  private destroyed = false;

  constructor(image: unknown) {
    super();
    if (!StandInTray.available) throw new Error('The system tray is not available on this desktop');
    this.image = image;
    StandInTray.all.push(this);
  }

  private alive(): void {
    if (this.destroyed) throw destroyedError();
  }

  setImage(image: unknown): void {
    this.alive();
    this.image = image;
  }

  setToolTip(tooltip: string): void {
    this.alive();
    this.tooltip = tooltip;
  }

  setContextMenu(menu: StandInMenu | null): void {
    this.alive();
    this.contextMenu = menu;
  }

  displayBalloon(options: { title: string; content: string }): void {
    this.alive();
    this.balloons.push(options);
  }

  destroy(): void {
    this.destroyed = true;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** The trader clicks the icon. */
  click(): void {
    this.alive();
    this.emit('click', new StandInEvent(), { x: 0, y: 0, width: 16, height: 16 }, { x: 8, y: 8 });
  }
}

// ---------------------------------------------------------------- the module and its control handle

export interface SaveDialogOptions {
  title?: string;
  defaultPath?: string;
  filters?: Array<{ name: string; extensions: string[] }>;
}

export interface DialogCall {
  kind: 'save' | 'messageBox' | 'errorBox';
  /** The window it was modal to, if any. */
  window: StandInBrowserWindow | null;
  options: Record<string, unknown>;
}

/** What the page (through the preload) can do in one frame of a window. */
export interface StandInPage {
  /** `ipcRenderer.invoke(channel, args)`, as src/preload/index.ts calls it. */
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  /** What the main process pushes on `channel`. */
  on(channel: string, listener: (...args: unknown[]) => void): () => void;
}

export interface ElectronStandIn {
  /** What `import ... from 'electron'` gets. */
  electron: Record<string, unknown>;
  app: StandInApp;
  ipcMain: StandInIpcMain;
  /** The folder the stand-in's paths live in (userData, downloads, ...). */
  base: string;
  windows(): StandInBrowserWindow[];
  notifications: StandInNotification[];
  trays: StandInTray[];
  dialogs: DialogCall[];
  clipboardText(): string;
  openedPaths: string[];
  powerMonitor: EventEmitter;
  /** The answer the next save dialogs give (a path, or null for Cancel). */
  answerSaveDialog(answer: (options: SaveDialogOptions) => string | null): void;
  setNotificationsSupported(supported: boolean): void;
  setTrayAvailable(available: boolean): void;
  protocolHandlers: Map<string, (request: Request) => Response | Promise<Response>>;
  privilegedSchemes: Array<{ scheme: string; privileges?: Record<string, boolean> }>;
  /** The page in `frame` of `win` (its top frame by default). */
  page(win: StandInBrowserWindow, frame?: StandInFrame): StandInPage;
  /** A frame inside `win`'s page (an iframe), at `url`. */
  subFrame(win: StandInBrowserWindow, url: string): StandInFrame;
  /** A web contents that is no window's (a page Electron made for something else). */
  strayWebContents(url: string): StandInWebContents;
  /** The frame whose preload runs next: what `contextBridge` and `ipcRenderer` act for (its top frame by default). */
  preloadIn(win: StandInBrowserWindow, frame?: StandInFrame): void;
  /** What the preload exposed with `contextBridge.exposeInMainWorld`, by name: what the page's `window` gets. */
  mainWorld: Record<string, unknown>;
}

/** contextBridge's copy of an exposed value: plain values cloned, functions callable, nothing else reachable. */
function bridged(value: unknown): unknown {
  if (typeof value === 'function') return (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...args);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bridged(v)]));
  return structuredClone(value);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface StandInOptions {
  /** What app.getAppPath() answers (the project root when unpackaged); a folder of its own by default. */
  appPath?: string;
  version?: string;
}

export function createElectronStandIn(options: StandInOptions = {}): ElectronStandIn {
  const base = mkdtempSync(path.join(tmpdir(), 'oddsdesk-electron-'));
  const appPath = options.appPath ?? path.join(base, 'app');
  mkdirSync(appPath, { recursive: true });
  const app = new StandInApp(base, appPath, options.version ?? packageVersion());
  activeApp = app;
  const sessions = new StandInSessions(app);
  activeSessions = sessions;
  const ipcMain = new StandInIpcMain();
  const dialogs: DialogCall[] = [];
  let saveAnswer: (o: SaveDialogOptions) => string | null = () => null;
  let clipboard = '';
  const openedPaths: string[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const privilegedSchemes: ElectronStandIn['privilegedSchemes'] = [];

  class PowerMonitor extends EventEmitter {
    override on(event: string | symbol, listener: (...args: unknown[]) => void): this {
      app.mustBeReady('powerMonitor');
      return super.on(event, listener);
    }
  }
  const powerMonitor = new PowerMonitor();

  /** dialog.x([window,] options): Electron's optional first argument. */
  const split = (a: unknown, b: unknown): [StandInBrowserWindow | null, Record<string, unknown>] =>
    a instanceof StandInBrowserWindow
      ? [a, (b ?? {}) as Record<string, unknown>]
      : [null, (a ?? {}) as Record<string, unknown>];

  // The renderer side, for the preload: the frame it runs in, and what it exposed.
  let preloadFrame: { win: StandInBrowserWindow; frame: StandInFrame } | null = null;
  const mainWorld: Record<string, unknown> = {};
  const rendererFrame = () => {
    if (!preloadFrame) throw new Error('no page for the preload: call preloadIn(win) first');
    return preloadFrame;
  };
  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      const { win, frame } = rendererFrame();
      return ipcMain.invoke(win.webContents, frame, channel, ...args);
    },
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
      const { win } = rendererFrame();
      win.webContents.onPageMessage(channel, (...args) => listener({ sender: ipcRenderer }, ...args));
      return ipcRenderer;
    },
    send(channel: string, ...args: unknown[]): void {
      const { win, frame } = rendererFrame();
      ipcMain.emit(
        channel,
        { sender: win.webContents, senderFrame: frame, frameId: 1, processId: 1 },
        ...structuredClone(args),
      );
    },
  };

  const electron: Record<string, unknown> = {
    app,
    BrowserWindow: StandInBrowserWindow,
    ipcMain,
    session: sessions,
    net: {
      request: (o: ClientRequestConstructorOptions | string) => new StandInClientRequest(o),
      fetch: (input: string | Request, init?: RequestInit) => sessions.defaultSession.fetch(input, init),
      isOnline: () => true,
    },
    protocol: {
      registerSchemesAsPrivileged(schemes: ElectronStandIn['privilegedSchemes']) {
        if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
        privilegedSchemes.push(...schemes);
      },
      handle(scheme: string, handler: (request: Request) => Response | Promise<Response>) {
        app.mustBeReady('protocol');
        if (protocolHandlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
        protocolHandlers.set(scheme, handler);
      },
      unhandle(scheme: string) {
        protocolHandlers.delete(scheme);
      },
      isProtocolHandled: (scheme: string) => protocolHandlers.has(scheme),
    },
    Notification: StandInNotification,
    Tray: StandInTray,
    Menu: StandInMenu,
    nativeImage: {
      createFromBuffer: (buffer: Buffer) => new StandInNativeImage(buffer),
      createEmpty: () => new StandInNativeImage(Buffer.alloc(0)),
    },
    dialog: {
      showSaveDialog(a: unknown, b?: unknown) {
        app.mustBeReady('dialog');
        const [window, o] = split(a, b);
        dialogs.push({ kind: 'save', window, options: o });
        const filePath = saveAnswer(o as SaveDialogOptions);
        return Promise.resolve(filePath === null ? { canceled: true, filePath: '' } : { canceled: false, filePath });
      },
      showMessageBox(a: unknown, b?: unknown) {
        app.mustBeReady('dialog');
        const [window, o] = split(a, b);
        dialogs.push({ kind: 'messageBox', window, options: o });
        return Promise.resolve({ response: 0, checkboxChecked: false });
      },
      // The one dialog Electron allows before 'ready'.
      showErrorBox(title: string, content: string) {
        dialogs.push({ kind: 'errorBox', window: null, options: { title, content } });
      },
    },
    clipboard: {
      writeText: (text: string) => void (clipboard = text),
      readText: () => clipboard,
    },
    shell: {
      openPath: (p: string) => {
        openedPaths.push(p);
        return Promise.resolve('');
      },
      openExternal: (url: string) => {
        openedPaths.push(url);
        return Promise.resolve();
      },
    },
    screen: {
      getAllDisplays() {
        app.mustBeReady('screen');
        return [
          {
            id: 1,
            bounds: { x: 0, y: 0, width: 1920, height: 1080 },
            workArea: { x: 0, y: 0, width: 1920, height: 1040 },
            scaleFactor: 1,
          },
        ];
      },
      getPrimaryDisplay() {
        app.mustBeReady('screen');
        return {
          id: 1,
          bounds: { x: 0, y: 0, width: 1920, height: 1080 },
          workArea: { x: 0, y: 0, width: 1920, height: 1040 },
          scaleFactor: 1,
        };
      },
    },
    powerMonitor,
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        rendererFrame();
        if (key in mainWorld) throw new Error('Cannot bind an API on top of an existing property on the window object');
        mainWorld[key] = bridged(api);
      },
    },
    ipcRenderer,
  };

  return {
    electron,
    mainWorld,
    preloadIn(win, frame = win.webContents.mainFrame) {
      preloadFrame = { win, frame };
    },
    app,
    ipcMain,
    base,
    windows: () => StandInBrowserWindow.getAllWindows(),
    notifications: StandInNotification.shown,
    trays: StandInTray.all,
    dialogs,
    clipboardText: () => clipboard,
    openedPaths,
    powerMonitor,
    answerSaveDialog(answer) {
      saveAnswer = answer;
    },
    setNotificationsSupported(supported) {
      StandInNotification.supported = supported;
    },
    setTrayAvailable(available) {
      StandInTray.available = available;
    },
    protocolHandlers,
    privilegedSchemes,
    page(win, frame = win.webContents.mainFrame) {
      return {
        invoke: (channel, ...args) => ipcMain.invoke(win.webContents, frame, channel, args),
        on: (channel, listener) => win.webContents.onPageMessage(channel, listener),
      };
    },
    subFrame(win, url) {
      const top = win.webContents.mainFrame;
      return { url, parent: top, top, name: 'child' };
    },
    strayWebContents(url) {
      const contents = new StandInWebContents(null);
      app.emit('web-contents-created', new StandInEvent(), contents);
      void contents.loadURL(url);
      return contents;
    },
  };
}

/** The one stand-in a test file's `vi.mock('electron', ...)` hands out, and the test steers. */
let shared: ElectronStandIn | null = null;
export function electronStandIn(): ElectronStandIn {
  shared ??= createElectronStandIn();
  return shared;
}
