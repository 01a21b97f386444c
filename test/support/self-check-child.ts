/** The core's self-check in its own process (to run it without a Secret Service): prints its JSON line. */
import { selfCheck } from '../../src/main/core/self-check.ts';

const report = await selfCheck({ dataDir: process.argv[2]!, version: '0.0.0-test' });
process.stdout.write(JSON.stringify(report) + '\n');
