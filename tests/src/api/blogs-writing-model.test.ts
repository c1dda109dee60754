import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { BLOG_TEXTS, BLOG_TOPIC_IDEAS } from '@telemed/contracts';
import { OpenAiCompatibleWritingAssistant, WritingAssistantError } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

/** A local server speaking OpenAI's chat-completions API, over real HTTP, whose behaviour each test sets. */
interface ModelCall {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: unknown };
}
type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

const completion = (content: string) => JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const ideasJson = (n: number, extra: Record<string, string> = {}) =>
  JSON.stringify({ ideas: Array.from({ length: n }, (_, i) => ({ title: `Idea ${i + 1}`, description: `Why idea ${i + 1} matters.`, content: `Plain advice ${i + 1}.`, ...extra })) });
const answer =
  (status: number, text: string): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(text);
  };

describe('the Writing Assistant on an OpenAI-compatible model (issue 16)', () => {
  let server: Server;
  let baseUrl: string;
  let behaviour: Behaviour;
  const calls: ModelCall[] = [];
  const open = new Set<ServerResponse>();

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelCall['body'] });
        open.add(res);
        res.on('close', () => open.delete(res));
        behaviour(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  beforeEach(() => {
    calls.length = 0;
    behaviour = answer(200, completion(ideasJson(3)));
  });
  after(async () => {
    for (const res of open) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const assistant = (options: Partial<ConstructorParameters<typeof OpenAiCompatibleWritingAssistant>[0]> = {}) =>
    new OpenAiCompatibleWritingAssistant({ baseUrl, apiKey: 'sk-test-key', model: 'test-model', timeoutMs: 5000, maxResponseBytes: 16 * 1024, ...options });
  const request = { specialty: 'Cardiology', title: 'Salt and blood pressure', category: 'Nutrition', count: 3 };
  const failsWith = async (reason: WritingAssistantError['reason'], run: () => Promise<unknown>) => {
    await assert.rejects(run, (error: unknown) => error instanceof WritingAssistantError && error.reason === reason);
  };

  it('asks /chat/completions with the key and the model, sending only the specialty, title and category; answers validated ideas', async () => {
    const ideas = await assistant().topicIdeas(request);
    assert.deepEqual(ideas.map((i) => i.title), ['Idea 1', 'Idea 2', 'Idea 3']);
    assert.equal(calls.length, 1);
    const call = calls[0]!;
    assert.equal(call.path, '/v1/chat/completions');
    assert.equal(call.authorization, 'Bearer sk-test-key');
    assert.equal(call.body.model, 'test-model');
    assert.deepEqual(call.body.response_format, { type: 'json_object' });
    const user = call.body.messages.find((m) => m.role === 'user')!.content;
    for (const part of ['Cardiology', 'Salt and blood pressure', 'Nutrition']) assert.ok(user.includes(part), part);
  });

  it('keeps at most the ideas asked for, takes a fenced answer, and strips markup and control characters', async () => {
    behaviour = answer(200, completion('```json\n' + ideasJson(5, { content: 'Eat <img src=x onerror=alert(1)>less salt\u202e.' }) + '\n```'));
    const ideas = await assistant().topicIdeas(request);
    assert.equal(ideas.length, 3);
    assert.equal(ideas[0]!.content, 'Eat img src=x onerror=alert(1)less salt.');
    assert.ok(ideas.every((i) => !/[<>]/.test(i.content)));
  });

  it('a slow model is abandoned at the timeout', async () => {
    behaviour = () => {}; // never answers
    const started = Date.now();
    await failsWith('timeout', () => assistant({ timeoutMs: 300 }).topicIdeas(request));
    assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
  });

  it('a model that starts answering and stalls is abandoned at the timeout too', async () => {
    behaviour = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"choices": [');
    };
    await failsWith('timeout', () => assistant({ timeoutMs: 300 }).topicIdeas(request));
  });

  it('an error status, an answer too large, an answer that is not ideas, and no server at all are failures', async () => {
    behaviour = answer(500, '{"error": {"message": "overloaded"}}');
    await failsWith('status', () => assistant().topicIdeas(request));
    behaviour = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(completion(ideasJson(1, { content: 'x'.repeat(1000) })) + ' '.repeat(64 * 1024));
    };
    await failsWith('too_large', () => assistant().topicIdeas(request));
    behaviour = answer(200, completion('Here are some ideas: eat well, sleep well.'));
    await failsWith('invalid', () => assistant().topicIdeas(request));
    behaviour = answer(200, completion(JSON.stringify({ ideas: [{ title: 'No content' }] })));
    await failsWith('invalid', () => assistant().topicIdeas(request));
    behaviour = answer(200, '{"not": "a completion"}');
    await failsWith('invalid', () => assistant().topicIdeas(request));
    await failsWith('unreachable', () => assistant({ baseUrl: 'http://127.0.0.1:9/v1' }).topicIdeas(request));
  });

  describe('through the API', () => {
    let t: TestApp;
    let doctor: TestUser;
    before(async () => {
      t = await startTestApp({ env: { WRITING_MODEL_URL: baseUrl, WRITING_MODEL_API_KEY: 'sk-test-key', WRITING_MODEL_NAME: 'test-model', WRITING_MODEL_TIMEOUT_MS: '1500' } });
      doctor = await t.createUser('doctor', { name: 'Dr. Kavya Rao', doctor: { specialty: 'Dermatology' } });
      await t.settle();
    });
    after(() => t.close());

    it("offers the model's ideas, sent only the doctor's specialty and the post's title and category, and says they are a model's", async () => {
      const res = await t.http.get('/api/v1/blogs/topic-ideas').query({ title: 'Sunscreen myths', category: 'preventive-care' }).set(doctor.auth).expect(200);
      assert.equal(res.body.source, 'model');
      assert.equal(res.body.notice, BLOG_TEXTS.modelIdeasNotice('test-model'));
      assert.deepEqual(res.body.ideas.map((i: { id: string; title: string }) => [i.id, i.title]), [['model-1', 'Idea 1'], ['model-2', 'Idea 2'], ['model-3', 'Idea 3']]);
      const sent = JSON.stringify(calls.at(-1)!.body.messages);
      for (const part of ['Dermatology', 'Sunscreen myths', 'Preventive Care']) assert.ok(sent.includes(part), part);
      for (const never of ['Kavya', doctor.user_id, '@test.local']) assert.ok(!sent.includes(never), `never sends ${never}`);
    });

    it('falls back to the bundled ideas, labelled as bundled, when the model is slow or fails', async () => {
      const bundledIds = new Set<string>(BLOG_TOPIC_IDEAS.map((i) => i.id));
      behaviour = () => {};
      const slow = await t.http.get('/api/v1/blogs/topic-ideas').set(doctor.auth).expect(200);
      assert.equal(slow.body.source, 'bundled');
      assert.equal(slow.body.notice, BLOG_TEXTS.modelFailedNotice);
      assert.equal(slow.body.ideas.length, 3);
      assert.ok(slow.body.ideas.every((i: { id: string }) => bundledIds.has(i.id)));
      behaviour = answer(200, completion('not json'));
      const bad = await t.http.get('/api/v1/blogs/topic-ideas').set(doctor.auth).expect(200);
      assert.equal(bad.body.source, 'bundled');
      assert.equal(bad.body.notice, BLOG_TEXTS.modelFailedNotice);
      await t.http.get('/api/v1/blogs/topic-ideas').query({ category: 'astrology' }).set(doctor.auth).expect(422);
    });
  });
});
