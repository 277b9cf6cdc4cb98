// What a slice of the renderer's store is given to work with: the store's write and read, as zustand hands them to
// the slice's creator. A slice's groups of actions take these two as their explicit inputs.
import type { StoreApi } from 'zustand';
import type { StoreState } from './index';

export type SetStore = StoreApi<StoreState>['setState'];
export type GetStore = StoreApi<StoreState>['getState'];
