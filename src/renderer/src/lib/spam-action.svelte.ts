/**
 * A mark the user makes beside a figure ("Not spam", "Mark as spam"): one at a time, what it did
 * said where it was done, with an Undo. The views load again by themselves (the core says
 * `data.changed` scope `spam`); this only keeps the outcome, which outlives the row it was about
 * (the row leaves its table once marked).
 */
import type { SpamMarkVerdict } from '../../../shared/spam.ts';
import { clearToken, markToken } from './spam.ts';
import { words } from './words.ts';

export interface SpamOutcome {
  kind: 'ok' | 'error';
  text: string;
  /** Takes the mark back; absent once undone, and for an error. */
  undo?: () => Promise<void>;
}

export class SpamAction {
  #busy = $state(false);
  #outcome = $state<SpamOutcome | null>(null);

  get busy(): boolean {
    return this.#busy;
  }

  get outcome(): SpamOutcome | null {
    return this.#outcome;
  }

  /** Marks the token `target` on `chain` for every wallet; `target` null: its contract is not known here (said, nothing marked). */
  async mark(name: string, chain: string, target: string | null | Promise<string | null>, verdict: SpamMarkVerdict): Promise<void> {
    this.#busy = true;
    this.#outcome = null;
    try {
      const cid = await target;
      if (!cid) throw new Error(words.spam.noTarget);
      await markToken(chain, cid, verdict);
      this.#outcome = {
        kind: 'ok',
        text: verdict === 'spam' ? words.spam.markedSpam(name) : words.spam.markedNotSpam(name),
        undo: () => this.#undo(chain, cid),
      };
    } catch (err) {
      this.#outcome = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
    } finally {
      this.#busy = false;
    }
  }

  async #undo(chain: string, cid: string): Promise<void> {
    this.#busy = true;
    try {
      await clearToken(chain, cid);
      this.#outcome = { kind: 'ok', text: words.spam.undone };
    } catch (err) {
      this.#outcome = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
    } finally {
      this.#busy = false;
    }
  }
}
