/// <reference types="vite/client" />
import type { OddsdeskApi } from '../../shared/ipc/contract';

declare global {
  interface Window {
    /** Present only in Electron, exposed by the preload. */
    oddsdesk?: OddsdeskApi;
  }
}
