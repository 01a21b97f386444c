import { createCore } from '/work/main/src/main/core/app.ts';
import { demoStarter } from '/work/main/src/sim/demo.ts';
const dir = process.argv[2]!;
let t = performance.now();
const core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, demo: demoStarter(), scheduleEveryMs: 0 });
const out: Record<string, number> = { open: Math.round(performance.now() - t) };
const asks: Array<[string, object]> = [["wallets.list",{}],["wallets.status",{}],["timeline.facets",{}],["timeline.page",{limit:500}],["timeline.days",{zone:"UTC"}],["timeline.page",{limit:100}]];
for (const [op, input] of asks) {
  t = performance.now();
  const r = await core.dispatch(op, input);
  if (!r.ok) console.log(op, JSON.stringify(r.error).slice(0,200));
  out[op + (out[op] !== undefined ? '#2' : '')] = Math.round(performance.now() - t);
}
console.log(JSON.stringify(out));
process.exit(0);
