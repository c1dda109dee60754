/** Prints the README benchmark table from bench/results/latest.json: `npx tsx bench/src/print-table.ts`. */
import { readFileSync } from 'node:fs';
import { markdownTable } from './table';
console.log(markdownTable(JSON.parse(readFileSync('bench/results/latest.json', 'utf8'))));
