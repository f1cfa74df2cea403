import { startStaticServer } from '/work/wt-audit/test/e2e/support.ts';
const s = await startStaticServer('/work/shared/epstein-bench-v1.0');
console.log(s.url);
setInterval(() => {}, 1 << 30);
