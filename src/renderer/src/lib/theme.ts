/** Light and dark: the OS decides unless the user picked one in Settings. */
import type { Settings } from '../../../shared/contract.ts';

export type ThemeChoice = Settings['theme'];

let choice: ThemeChoice = 'system';
let media: MediaQueryList | null = null;

function resolve(): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return media?.matches ? 'dark' : 'light';
}

export function applyTheme(next: ThemeChoice): void {
  choice = next;
  if (typeof window === 'undefined') return;
  if (!media) {
    media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', () => document.documentElement.setAttribute('data-theme', resolve()));
  }
  document.documentElement.setAttribute('data-theme', resolve());
}

export function currentTheme(): 'light' | 'dark' {
  return resolve();
}
