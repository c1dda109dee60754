import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { glob } from 'tinyglobby';
import { EVENT_FAMILIES, EVENT_TYPES, IGNORED, entryFor, ignoring, type EventTable } from '@telemed/contracts';
import { allProjections } from '@telemed/query';
import { repoRoot } from '../support/processes';

const ROOT = path.resolve(repoRoot);
const EVENTS_FILE = path.join(ROOT, 'contracts/src/events.ts');
/** A type added to the union in the fixture: no reader has decided it. */
const PROBE = 'ReaderProbeRecorded';

/**
 * The readers a file defines, as written: a projection (defineProjection), a process manager (startProcessManager), or
 * a table of what each event type makes (`satisfies EventTable<...>`).
 */
function readersIn(source: ts.SourceFile): ts.Node[] {
  const found: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['defineProjection', 'startProcessManager'].includes(node.expression.text)) found.push(node);
    if (ts.isSatisfiesExpression(node) && ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'EventTable') found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

async function readerFiles(): Promise<string[]> {
  const candidates = await glob(['services/*/src/**/*.ts'], { cwd: ROOT, ignore: ['**/*.test.ts', '**/node_modules/**'], absolute: true });
  return candidates.sort().filter((file) => readersIn(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)).length > 0);
}

/** The backend's compiler options, with contracts' events.ts given one more event type than it has. */
function programWithProbe(rootNames: string[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) });
  assert.ok(config);
  const host = ts.createCompilerHost(config.options);
  const original = readFileSync(EVENTS_FILE, 'utf8');
  const opening = 'export const eventDataSchemas = {\n';
  assert.ok(original.includes(opening), 'events.ts declares eventDataSchemas as the fixture expects');
  const withProbe = original.replace(opening, `${opening}  ${PROBE}: z.object({ appointment_id: z.string() }),\n`);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    path.resolve(fileName) === EVENTS_FILE ? ts.createSourceFile(fileName, withProbe, languageVersion, true) : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  return ts.createProgram({ rootNames, options: config.options, host });
}

describe('every reader decides every event type (issue 32)', () => {
  it('a new event type fails to compile in each projection, process manager and notifier table until it decides', async () => {
    const files = await readerFiles();
    const relative = (file: string) => path.relative(ROOT, file);
    for (const expected of ['services/command/src/process-managers/release-slots.ts', 'services/query/src/schedule/pending-reservations.ts', 'services/notifier/src/messages.ts']) {
      assert.ok(files.map(relative).includes(expected), `${expected} is a reader`);
    }

    const program = programWithProbe(files);
    const unreported: string[] = [];
    let projections = 0;
    for (const file of files) {
      const source = program.getSourceFile(file);
      assert.ok(source, relative(file));
      const naming = program.getSemanticDiagnostics(source).filter((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').includes(PROBE));
      // Each reader has an error of its own, inside its definition (its ignore list, or its table), naming the new type.
      for (const reader of readersIn(source)) {
        if (ts.isCallExpression(reader) && file.includes('/services/query/src/')) projections += 1;
        if (!naming.some((d) => d.start !== undefined && d.start >= reader.getStart(source) && d.start < reader.getEnd())) {
          unreported.push(`${relative(file)}:${source.getLineAndCharacterOfPosition(reader.getStart(source)).line + 1}`);
        }
      }
    }
    // The product's projections are all among them: none is defined some other way.
    assert.equal(projections, allProjections.length, 'every projection is built with defineProjection');
    assert.deepEqual(unreported, []);
  });

  it('ignoring expands families, and a table answers undefined for what it ignores or does not know', () => {
    const table = {
      AppointmentRequested: 'requested',
      ...ignoring('accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet'),
      ...ignoring('AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired', 'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted'),
      ...ignoring('AppointmentRescheduled', 'AppointmentHoldReleased', 'AppointmentNoShow', 'AppointmentTimesProposed', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn'),
    } as const satisfies EventTable<'requested'>;
    assert.deepEqual(Object.keys(table).sort(), [...EVENT_TYPES].sort());
    assert.equal(table.BlogPostViewed, IGNORED);
    assert.equal(entryFor(table, 'AppointmentRequested'), 'requested');
    assert.equal(entryFor(table, 'AppointmentApproved'), undefined);
    assert.equal(entryFor(table, 'SomethingANewerWriterRecorded'), undefined);
    // Families are disjoint: ignoring one never ignores another's events.
    const members = Object.values(EVENT_FAMILIES).flat();
    assert.equal(new Set(members).size, members.length);
  });
});
