import { z } from 'zod';

/**
 * The scrypt costs a file may name (an encrypted user-data file, a data folder's
 * encryption.json): within what this app can run, refused before any work otherwise. N is a
 * power of two between 2^14 and 2^20 (2^20 with r 8 takes 1 GiB), r and p small.
 */
export const scryptCosts = {
  N: z
    .number()
    .int()
    .min(2 ** 14)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'N must be a power of two'),
  r: z.number().int().min(1).max(32),
  p: z.number().int().min(1).max(16),
};
