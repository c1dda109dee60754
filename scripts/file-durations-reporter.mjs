// A node:test reporter that writes, when the run ends, each test file's wall time (from its process's start to its
// end, imports included) as JSON, slowest first: where `npm test`'s minutes go. run-tests.mjs adds it when
// TEST_DURATIONS names a file.
export default async function* fileDurations(source) {
  const started = new Map();
  const rows = [];
  for await (const event of source) {
    const { file, name, nesting } = event.data ?? {};
    if (nesting !== 0 || !file || name !== file) continue;
    if (event.type === 'test:dequeue') started.set(file, Date.now());
    if (event.type === 'test:complete' && started.has(file)) {
      rows.push({ file: file.replace(`${process.cwd()}/`, ''), ms: Date.now() - started.get(file), passed: event.data.details?.passed ?? true });
    }
  }
  rows.sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  yield `${JSON.stringify({ files: rows.length, total_ms: total, rows }, null, 1)}\n`;
}
