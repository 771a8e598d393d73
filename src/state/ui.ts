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

/**
 * Whether the page on screen is the not-found page: the shell's title then says so, whatever
 * the path's first segment names (/app/dashboard, /app/reports/nonsense). Set by the page itself.
 */
export const screen = proxy({ notFound: false });
