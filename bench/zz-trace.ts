import { freshDatabase } from './ingest.ts';
import { syncWhale, whaleSimulator } from './whale.ts';
const sim = await whaleSimulator(200_000, 30);
const db = freshDatabase('whale-trace.sqlite');
console.error('TRACE start', performance.now().toFixed(0));
const run = await syncWhale(db, sim.url, 4);
console.error('TRACE end', performance.now().toFixed(0), run.ms.toFixed(0));
db.close(); sim.close();
