// The renderer's one zustand store, built from slices. The IPC listeners are registered once here, outside React.
import { create } from 'zustand';
import type { AppError } from '../../../shared/errors';
import type { AppInfo, CoverageView, StatusView } from '../../../shared/ipc/contract';
import { api } from '../api';

interface AppSlice {
  info: AppInfo | null;
  status: StatusView | null;
}

interface CoverageSlice {
  coverage: CoverageView | null;
  coverageLoading: boolean;
  coverageError: AppError | null;
  loadCoverage: () => Promise<void>;
}

export type StoreState = AppSlice & CoverageSlice;

export const useStore = create<StoreState>()((set) => ({
  info: null,
  status: null,
  coverage: null,
  coverageLoading: false,
  coverageError: null,
  async loadCoverage() {
    set({ coverageLoading: true });
    const r = await api.invoke('coverage:get');
    set(r.ok ? { coverage: r.value, coverageError: null, coverageLoading: false } : { coverageError: r.error, coverageLoading: false });
  },
}));

let started = false;
/** Wires pushed events into the store; call once at start-up. */
export function startStore(): void {
  if (started) return;
  started = true;
  api.on('onStatus', (status) => useStore.setState({ status }));
  void api.invoke('app:info').then((r) => {
    if (r.ok) useStore.setState({ info: r.value });
  });
}
