// Web Notifications recorded instead of shown (an init script), and read back: what the core pushed to the page.
import type { Page } from '@playwright/test';

/** Records Web Notifications instead of showing them, with permission granted (run in the page, before its scripts). */
export function recordNotifications() {
  const notes: Array<{ title: string; body: string }> = [];
  (window as unknown as { __notes: typeof notes }).__notes = notes;
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      notes.push({ title, body: options?.body ?? '' });
    }
    close() {}
  }
  (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
}

/** The notifications recorded so far. */
export const recordedNotes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notes: Array<{ title: string; body: string }> }).__notes);
