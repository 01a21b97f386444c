/**
 * One conversion of a cache file in its own process, to be killed midway by a test:
 * convert-child.ts FILE FROM_HEX|- TO_HEX|- → prints "converting" when it starts and "done" when
 * the cache is converted and its old file removed.
 */
import { convertCache, finishConversions } from '../../src/main/core/store/cache-conversion.ts';
import { CacheKey } from '../../src/main/core/store/driver.ts';

const [file, from, to] = process.argv.slice(2);
const key = (hex: string | undefined) => (hex && hex !== '-' ? CacheKey.fromHex(hex) : null);
process.stdout.write('converting\n');
convertCache(file!, key(from), key(to));
finishConversions(file!);
process.stdout.write('done\n');
