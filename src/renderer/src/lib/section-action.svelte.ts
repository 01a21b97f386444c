/**
 * A Settings section's actions (add a schedule, back up now, import a file, save a rule): one
 * at a time, and how the last one went, said in the section where it was taken. Shared by the
 * sections so each says it the same way.
 */
export interface SectionMessage {
  kind: 'ok' | 'error';
  text: string;
}

export class SectionAction {
  #busy = $state(false);
  #message = $state<SectionMessage | null>(null);

  get busy(): boolean {
    return this.#busy;
  }

  get message(): SectionMessage | null {
    return this.#message;
  }

  set message(m: SectionMessage | null) {
    this.#message = m;
  }

  /**
   * Runs `task`; its text (if any) is the outcome, or its error's message. `after` runs on
   * success before the outcome is said (reloading the list the action changed); `onError` sees
   * the error (a section may offer a way forward).
   */
  async run(task: () => Promise<string | null>, o: { after?: () => Promise<unknown>; onError?: (err: unknown) => void } = {}): Promise<void> {
    this.#busy = true;
    this.#message = null;
    try {
      const text = await task();
      await o.after?.();
      if (text) this.#message = { kind: 'ok', text };
    } catch (err) {
      this.#message = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
      o.onError?.(err);
    } finally {
      this.#busy = false;
    }
  }
}
