import { proxy, subscribe } from 'valtio/vanilla';
import { STORAGE } from '../config';
import { readItem, writeItem } from './storage';

/** Preferences of the shell that outlive a session. */
export const ui = proxy({
  sidebarOpen: readItem('localStorage', STORAGE.sidebarOpen) !== 'false',
});

subscribe(ui, () => writeItem('localStorage', STORAGE.sidebarOpen, String(ui.sidebarOpen)));

export function toggleSidebar(): void {
  ui.sidebarOpen = !ui.sidebarOpen;
}
