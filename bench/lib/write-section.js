// Puts one benchmark's table into BENCHMARKS.md between its markers, adding the section if new,
// so each bench script owns its block and re-running one leaves the others as they were.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeBenchmarkSection(name, title, body) {
  const file = new URL('../../BENCHMARKS.md', import.meta.url);
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = `${start}\n${body.trim()}\n${end}`;
  text = text.includes(start)
    ? text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => block)
    : `${text.trimEnd()}\n\n## ${title}\n\n${block}\n`;
  writeFileSync(file, text);
}
