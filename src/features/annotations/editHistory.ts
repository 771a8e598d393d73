// Undo and redo of annotation edits made on the review screen (Ctrl+Z / Ctrl+Shift+Z):
// each edit is a command that knows how to take itself back and do itself again through
// the same API calls a user would make. Framework-free; one history per open night.

/** One undoable edit. */
export interface EditCommand {
  /** What the edit was, for the status line ("Apnea → epoch 412"). */
  label: string;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/**
 * Past and future edits of one night; a new edit clears the future. Undo and redo run one
 * after another in the order pressed: a second Ctrl+Z while the first is still saving is
 * queued behind it, not dropped.
 */
export class EditHistory {
  private past: EditCommand[] = [];
  private future: EditCommand[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly limit = 100) {}

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  /** Records an edit that has just been made. */
  push(command: EditCommand): void {
    this.past = [...this.past, command].slice(-this.limit);
    this.future = [];
  }

  /** Runs `step` after every step asked for before it. */
  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Takes back the latest edit; null when there is none by the time its turn comes. */
  undo(): Promise<EditCommand | null> {
    return this.inTurn(async () => {
      const command = this.past.at(-1);
      if (!command) return null;
      await command.undo();
      this.past = this.past.slice(0, -1);
      this.future = [command, ...this.future];
      return command;
    });
  }

  /** Makes the latest undone edit again; null when there is none by the time its turn comes. */
  redo(): Promise<EditCommand | null> {
    return this.inTurn(async () => {
      const command = this.future[0];
      if (!command) return null;
      await command.redo();
      this.future = this.future.slice(1);
      this.past = [...this.past, command];
      return command;
    });
  }
}
