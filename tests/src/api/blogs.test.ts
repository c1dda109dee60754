import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, type Socket } from 'node:net';
import sharp from 'sharp';
import { BLOG_LIMITS, BLOG_TEXTS, streams } from '@telemed/contracts';
import { freePort } from '../support/processes';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type Then } from '../support/api-spec';
import { binaryBody } from '../support/binary-body';
import { METADATA_MARKER, photoWithMetadata, pixelsOf, realPng } from '../support/images';

const PNG = await realPng();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

const paragraph = (text: string) => ({ type: 'paragraph', data: { text } });
const content = (...blocks: unknown[]) => ({ time: 1, version: '2.31.0', blocks });
const post = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: null,
  content: content(paragraph(`${title}: drink clean water and rest.`)),
  ...extra,
});

describe('Patient Education Hub API (issue 16)', () => {
  let t: TestApp;
  let now = new Date('2030-03-10T06:00:00.000Z');
  let doctor: TestUser;
  let otherDoctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { SWEEP_INTERVAL_MS: '3600000', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Meera Iyer' });
    otherDoctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  async function create(who: TestUser, body: object): Promise<string> {
    const res = await t.http.post('/api/v1/blogs/').set(who.auth).send(body).expect(201);
    assert.deepEqual(Object.keys(res.body), ['id']);
    return res.body.id as string;
  }

  async function list(who: TestUser, query = '') {
    await t.settle();
    return (await t.http.get(`/api/v1/blogs/${query}`).set(who.auth).expect(200)).body;
  }

  it("creates with the seeds' call, publishes with a slug; drafts are the author's own, published posts anyone's", async () => {
    const id = await create(doctor, { title: 'Fever in children', description: 'What to do at home', content: content(paragraph('Give fluids. <b>Watch</b> the temperature.')) });
    await t.settle();
    const draft = await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200);
    assert.equal(draft.body.status, 'draft');
    assert.equal(draft.body.category, 'health-tips', 'seed default category');
    await t.http.get(`/api/v1/blogs/${id}`).set(otherDoctor.auth).expect(404);
    await t.http.get(`/api/v1/blogs/${id}`).set(patient.auth).expect(404);

    const published = await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200);
    assert.equal(published.body.status, 'published');
    assert.match(published.body.slug, /^fever-in-children-[0-9a-f]{8}$/);
    await t.settle();
    const read = await t.http.get(`/api/v1/public/blogs/${published.body.slug}`).expect(200);
    assert.equal(read.body.title, 'Fever in children');
    assert.equal(read.body.author_name, 'Dr. Meera Iyer');
    assert.equal(read.body.read_time, 1);
    assert.equal(read.body.content.blocks[0].data.text, 'Give fluids. <b>Watch</b> the temperature.');
    await t.http.get(`/api/v1/blogs/${id}`).set(patient.auth).expect(200);
    const onPage = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}/blogs`).expect(200);
    assert.deepEqual(onPage.body.map((p: { id: string }) => p.id), [id]);
    const sitemap = await t.http.get('/sitemap.xml').expect(200);
    assert.match(String(sitemap.headers['content-type']), /xml/);
    assert.ok(sitemap.text.includes(`/blog/${published.body.slug}</loc>`), 'the sitemap lists published posts');
  });

  it('only doctors write, and only their own posts', async () => {
    await t.http.post('/api/v1/blogs/').send(post('x')).expect(401);
    await t.http.post('/api/v1/blogs/').set(patient.auth).send(post('x')).expect(403);
    const id = await create(doctor, post('Mine'));
    for (const [method, path, body] of [
      ['put', `/api/v1/blogs/${id}`, post('Taken')],
      ['post', `/api/v1/blogs/${id}/publish`, undefined],
      ['post', `/api/v1/blogs/${id}/archive`, undefined],
      ['post', `/api/v1/blogs/${id}/schedule`, { publish_at: '2031-01-01T00:00:00Z' }],
      ['delete', `/api/v1/blogs/${id}?confirm=true`, undefined],
    ] as const) {
      const res = await t.http[method](path).set(otherDoctor.auth).send(body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.detail, BLOG_TEXTS.postNotFound);
    }
    await t.http.get('/api/v1/blogs/').set(patient.auth).expect(403);
  });

  it('refuses bad content with {"detail"} 4xx and cleans inline HTML', async () => {
    const bad = async (body: object, status = 422) => {
      const res = await t.http.post('/api/v1/blogs/').set(doctor.auth).send(body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.ok(res.body.detail, 'detail');
      return res.body.detail;
    };
    await bad({ title: 'x', content: content({ type: 'raw', data: { html: '<script>alert(1)</script>' } }) });
    await bad({ title: 'x', content: content({ type: 'header', data: { text: 'x', level: 9 } }) });
    await bad({ title: 'x', content: content({ type: 'embed', data: { service: 'youtube', source: 'https://evil.example/watch?v=abcdefghijk' } }) });
    await bad({ title: 'x', content: content({ type: 'linkTool', data: { link: 'javascript:alert(1)' } }) });
    await bad({ title: 'x', content: content({ type: 'image', data: { file: { url: 'https://evil.example/a.png' } } }) });
    await bad({ title: 'x', content: 'not blocks' });
    await bad({ title: 'x', content: content(), category: 'astrology' });
    await bad({ title: 'x', content: content(), extra: 1 });
    const res = await t.http.post('/api/v1/blogs/').set(doctor.auth).set('Content-Type', 'application/json').send('{"title":');
    assert.equal(res.status, 400);

    const dirty = content(
      paragraph('Hi <script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">bad</a> <a href="https://who.int" onclick="x()">ok</a> <span style="color:red">red</span> <mark class="cdx-marker">m</mark>'),
      { type: 'header', data: { text: '<i onmouseover="x()">Title</i><iframe src="https://evil.example"></iframe>', level: 2 } },
      { type: 'list', data: { style: 'unordered', items: [{ content: '<u>a</u><svg onload=alert(4)>', items: [{ content: '<a href="data:text/html,x">d</a>', items: [] }] }] } },
      { type: 'quote', data: { text: '<b>q</b><style>*{}</style>', caption: '<a href="mailto:a@b.in">mail</a>' } },
      { type: 'code', data: { code: '<script>shown as text</script>' } },
      { type: 'embed', data: { service: 'youtube', source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', embed: 'javascript:alert(5)' } },
    );
    const id = await create(doctor, { title: 'Clean', content: dirty });
    await t.settle();
    const blocks = (await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200)).body.content.blocks;
    assert.equal(blocks[0].data.text, 'Hi <a>bad</a> <a href="https://who.int">ok</a> red <mark>m</mark>', 'a refused link is inert text');
    assert.equal(blocks[1].data.text, '<i>Title</i>');
    assert.deepEqual(blocks[2].data.items, [{ content: '<u>a</u>', items: [{ content: '<a>d</a>', items: [] }] }]);
    assert.equal(blocks[3].data.text, '<b>q</b>');
    assert.equal(blocks[3].data.caption, '<a href="mailto:a@b.in">mail</a>');
    assert.equal(blocks[5].data.embed, 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', "a video block's frame is its service's player, never the address sent");
    assert.equal(blocks[4].data.code, '<script>shown as text</script>', 'code is text, rendered as text');
    // What the log holds is the cleaned content.
    const stored = await t.app.eventStore.readStream(streams.blogPost(id));
    assert.doesNotMatch(JSON.stringify(stored[0]!.data), /onerror|javascript:|<script>alert/);
  });

  it("keeps a link preview's title and description as plain text: markup dropped, '&', '<' and '>' kept as characters", async () => {
    const link = { type: 'linkTool', data: { link: 'https://who.int/news', meta: { title: 'Q&A: fever "myths" <b>x</b><img src=x onerror="alert(1)">', description: 'Temperature > 38 & rising: see a doctor &lt;today&gt;' } } };
    const id = await create(doctor, { title: 'Link preview', content: content(link) });
    await t.settle();
    const [stored] = (await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200)).body.content.blocks;
    assert.equal(stored.data.meta.title, 'Q&A: fever "myths" x', 'tags dropped, the ampersand a character');
    assert.equal(stored.data.meta.description, 'Temperature > 38 & rising: see a doctor <today>', 'shown as text, so characters, not entities');
  });

  it('publishing needs title and content; delete needs confirmation', async () => {
    const id = await create(doctor, { title: '', content: content() });
    await t.settle();
    const view = await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200);
    assert.equal(view.body.title, '', 'stored as typed; the pages show Untitled Draft');
    const refused = await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(422);
    assert.equal(refused.body.detail, BLOG_TEXTS.titleAndContentRequired);
    const unconfirmed = await t.http.delete(`/api/v1/blogs/${id}`).set(doctor.auth).expect(422);
    assert.equal(unconfirmed.body.detail, BLOG_TEXTS.deleteNeedsConfirmation);
    await t.http.delete(`/api/v1/blogs/${id}?confirm=true`).set(doctor.auth).expect(200);
    await t.settle();
    await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(404);
    await t.http.delete(`/api/v1/blogs/${id}?confirm=true`).set(doctor.auth).expect(404);
  });

  it('lists by status with counts per status and category, searches and sorts', async () => {
    const author = await t.createUser('doctor');
    const a = await create(author, post('Apple a day', { category: 'nutrition', tags: 'fruit, diet' }));
    const b = await create(author, post('Better sleep', { category: 'wellness' }));
    const c = await create(author, post('Calm the mind', { category: 'mental-health' }));
    const d = await create(author, post('Dengue season', { category: 'preventive-care' }));
    await t.http.post(`/api/v1/blogs/${a}/publish`).set(author.auth).expect(200);
    await t.http.post(`/api/v1/blogs/${c}/publish`).set(author.auth).expect(200);
    await t.http.post(`/api/v1/blogs/${c}/archive`).set(author.auth).expect(200);
    await t.http.post(`/api/v1/blogs/${d}/schedule`).set(author.auth).send({ publish_at: '2030-04-01T04:30:00+05:30' }).expect(200);

    const all = await list(author);
    assert.deepEqual(all.counts, { all: 4, published: 1, draft: 1, scheduled: 1, archived: 1 });
    const byCategory = Object.fromEntries(all.categories.map((x: { id: string; count: number }) => [x.id, x.count]));
    assert.deepEqual(byCategory, { 'health-tips': 0, 'medical-advice': 0, wellness: 1, nutrition: 1, 'mental-health': 1, 'preventive-care': 1 });
    assert.equal(all.stats.avg_read_time, 1);
    assert.deepEqual((await list(author, '?status=draft')).items.map((p: { id: string }) => p.id), [b]);
    assert.deepEqual((await list(author, '?status=scheduled')).items.map((p: { publish_at: string }) => p.publish_at), ['2030-03-31T23:00:00Z']);
    assert.deepEqual((await list(author, '?q=FRUIT')).items.map((p: { id: string }) => p.id), [a], 'search looks in tags too');
    assert.deepEqual((await list(author, '?q=sleep%20rest')).items.map((p: { id: string }) => p.id), [b], 'every word, in title or text');
    assert.deepEqual((await list(author, '?sort=title')).items.map((p: { title: string }) => p.title), ['Apple a day', 'Better sleep', 'Calm the mind', 'Dengue season']);
    assert.deepEqual((await list(author, '?sort=title&order=desc')).items.map((p: { title: string }) => p.title)[0], 'Dengue season');
    assert.equal((await list(author, '?category=wellness')).total, 1);
    await t.http.get('/api/v1/blogs/?sort=random').set(author.auth).expect(422);
    // Other doctors' posts never appear.
    assert.ok((await list(author)).items.every((p: { author_id: string }) => p.author_id === author.user_id));

    await t.http.delete(`/api/v1/blogs/${b}?confirm=true`).set(author.auth).expect(200);
    assert.deepEqual((await list(author)).counts, { all: 3, published: 1, draft: 0, scheduled: 1, archived: 1 });
  });

  it('the scheduler publishes a post at its time (injected clock), through the index of scheduled posts', async () => {
    const author = await t.createUser('doctor');
    const id = await create(author, post('Monsoon care'));
    const at = new Date(now.getTime() + 3 * 3600_000);
    await t.http.post(`/api/v1/blogs/${id}/schedule`).set(author.auth).send({ publish_at: new Date(now.getTime() - 1000).toISOString() }).expect(422);
    await t.http.post(`/api/v1/blogs/${id}/schedule`).set(author.auth).send({ publish_at: at.toISOString() }).expect(200);
    await t.settle();
    await t.app.runSweepsNow();
    await t.settle();
    assert.equal((await t.http.get(`/api/v1/blogs/${id}`).set(author.auth).expect(200)).body.status, 'scheduled', 'not before its time');
    const saved = now;
    now = new Date(at.getTime() + 1000);
    try {
      await t.app.runSweepsNow();
      await t.settle();
      const view = (await t.http.get(`/api/v1/blogs/${id}`).set(author.auth).expect(200)).body;
      assert.equal(view.status, 'published');
      assert.equal(view.published_at, at.toISOString().replace(/\.\d{3}Z$/, 'Z'), 'published as of its scheduled time');
      assert.ok(view.slug);
      const events = await t.app.eventStore.readStream(streams.blogPost(id));
      const last = events[events.length - 1]!;
      assert.equal(last.type, 'BlogPostPublished');
      assert.equal((last.metadata as { actor: { role: string } }).actor.role, 'system');
      assert.equal((await list(author)).counts.scheduled, 0);
    } finally {
      now = saved;
    }
  });

  it('unschedule takes a post back to the drafts; a published post cannot be scheduled', async () => {
    const id = await create(doctor, post('Later'));
    await t.http.post(`/api/v1/blogs/${id}/unschedule`).set(doctor.auth).expect(409);
    await t.http.post(`/api/v1/blogs/${id}/schedule`).set(doctor.auth).send({ publish_at: '2031-01-01T00:00:00Z' }).expect(200);
    const back = await t.http.post(`/api/v1/blogs/${id}/unschedule`).set(doctor.auth).expect(200);
    assert.equal(back.body.status, 'draft');
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200);
    const refused = await t.http.post(`/api/v1/blogs/${id}/schedule`).set(doctor.auth).send({ publish_at: '2031-01-01T00:00:00Z' }).expect(409);
    assert.equal(refused.body.detail, BLOG_TEXTS.cannotSchedulePublished);
  });

  it('counts views once per reader session, never the author, and the figures follow', async () => {
    const author = await t.createUser('doctor');
    const id = await create(author, post('Heat stroke'));
    const draftView = await t.http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: 'session-aaaaaaaaaaaaaaaa' });
    assert.equal(draftView.status, 404, 'a draft has no readers');
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200);
    const view = (session: string, who?: TestUser) => {
      const req = t.http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: session });
      return (who ? req.set(who.auth) : req).expect(200).then((r) => r.body.counted as boolean);
    };
    assert.equal(await view('session-aaaaaaaaaaaaaaaa'), true);
    assert.equal(await view('session-aaaaaaaaaaaaaaaa'), false, 'same session');
    assert.equal(await view('session-bbbbbbbbbbbbbbbb'), true);
    assert.equal(await view('session-cccccccccccccccc', author), false, 'the author');
    assert.equal(await view('session-dddddddddddddddd', patient), true);
    assert.equal(await view('session-eeeeeeeeeeeeeeee', patient), false, 'a signed-in reader is one session');
    await t.http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: 'short' }).expect(422);
    const figures = await list(author);
    assert.equal(figures.items[0].views, 3);
    assert.equal(figures.stats.total_views, 3);
    assert.equal(figures.stats.this_month, 3);
    assert.deepEqual((await list(author, '?sort=views')).items.map((p: { id: string }) => p.id)[0], id);
  });

  it('read time is the text of the blocks over 200, rounded up', async () => {
    const id = await create(doctor, { title: 'Long', content: content(paragraph('<b>' + 'a'.repeat(300) + '</b>'), { type: 'list', data: { style: 'ordered', items: [{ content: 'b'.repeat(150), items: [] }] } }) });
    await t.settle();
    assert.equal((await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200)).body.read_time, 3);
  });

  it('uploads images to the blob store (5 MB, type by content) and serves them with their stored type', async () => {
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'photo.jpg', contentType: 'image/jpeg' }).expect(201);
    assert.equal(up.body.success, 1);
    assert.match(up.body.file.url, /^\/api\/v1\/blogs\/images\/[0-9a-f-]{36}\?exp=\d+&sig=[\w-]{43}$/, "the author's own short-lived address");
    assert.equal(up.body.file.content_type, 'image/png', 'the type is what the content is, never its name');
    await t.settle();
    const got = await t.http.get(up.body.file.url).buffer(true).parse(binaryBody).expect(200);
    assert.equal(got.headers['content-type'], 'image/png');
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(await pixelsOf(got.body as Buffer), await pixelsOf(PNG), 'the picture uploaded');

    const pdf = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PDF, { filename: 'x.png', contentType: 'image/png' }).expect(415);
    assert.equal(pdf.body.detail, BLOG_TEXTS.imageType);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', big, { filename: 'big.png' }).ok(() => true);
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.body.detail, BLOG_TEXTS.imageTooLarge);
    await t.http.post('/api/v1/blogs/images').set(patient.auth).attach('image', PNG, { filename: 'a.png' }).expect(403);
    await t.http.get('/api/v1/blogs/images/0000000000000000').expect(404);

    // A post may show it.
    const id = await create(doctor, { title: 'With a picture', content: content({ type: 'image', data: { file: { url: up.body.file.url }, caption: 'A <b>chart</b>' } }), image_url: up.body.file.url });
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200);
  });

  it("a photo is stored without its metadata (Exif: the owner, the device, where it was taken): published pictures are anyone's", async () => {
    const photo = await photoWithMetadata();
    assert.ok(photo.includes(METADATA_MARKER), 'the upload carries it');
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', photo, { filename: 'home.jpg' }).expect(201);
    assert.equal(up.body.file.content_type, 'image/jpeg');
    await t.settle();
    const served = (await t.http.get(up.body.file.url).buffer(true).parse(binaryBody).expect(200)).body as Buffer;
    assert.ok(!served.includes(METADATA_MARKER) && !served.includes('PhoneMaker'), 'none of the metadata is served');
    assert.equal((await sharp(served).metadata()).exif, undefined, 'no Exif block at all');
    const { width, height } = await sharp(served).metadata();
    assert.deepEqual([width, height], [16, 12], 'the same picture');
    // A picture browsers draw despite a small fault (this one's checksum) is taken, as they would show it.
    const lenient = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR42mP8z8DwnwEIGGEMAFMnBf3PH0x7AAAAAElFTkSuQmCC', 'base64');
    await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', lenient, { filename: 'dot.png' }).expect(201);
    // A file whose header claims an image it does not hold is refused, nothing stored.
    const corrupt = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64)]);
    const refused = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', corrupt, { filename: 'broken.png' }).expect(400);
    assert.equal(refused.body.detail, BLOG_TEXTS.imageUploadError);
  });

  it("a picture is its author's alone until a published post shows it; then anyone's, until the post is archived", async () => {
    const raw = (req: ReturnType<typeof t.http.get>) =>
      req.buffer(true).parse(binaryBody);
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'scan.png' }).expect(201);
    const granted = up.body.file.url as string;
    const bare = granted.split('?')[0]!;
    await t.settle();

    // A draft's picture: no one but its author, whatever they hold.
    await t.http.get(bare).expect(404);
    await t.http.get(bare).set(otherDoctor.auth).expect(404);
    // A bearer token is not what an <img> sends: only the grant opens it.
    await t.http.get(bare).set(doctor.auth).expect(404);
    const { exp, sig } = Object.fromEntries(new URL(granted, 'http://x').searchParams) as { exp: string; sig: string };
    await t.http.get(bare).query({ exp: String(Number(exp) + 600), sig }).expect(404);
    await t.http.get(bare).query({ exp, sig: sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }).expect(404);
    const own = await raw(t.http.get(granted)).expect(200);
    assert.deepEqual(await pixelsOf(own.body as Buffer), await pixelsOf(PNG), 'the picture uploaded');
    assert.equal(own.headers['cache-control'], 'private, no-store');

    // Saved with the editor's address, stored bare; the author's reads carry a fresh grant, others' never.
    const id = await create(doctor, { title: 'A scan, explained', content: content({ type: 'image', data: { file: { url: granted }, caption: '' } }), image_url: granted });
    await t.settle();
    const mine = (await t.http.get(`/api/v1/blogs/${id}`).set(doctor.auth).expect(200)).body;
    assert.match(mine.content.blocks[0].data.file.url, /\?exp=\d+&sig=/);
    assert.match(mine.image_url, /\?exp=\d+&sig=/);
    const listed = (await t.http.get('/api/v1/blogs/?status=draft').set(doctor.auth).expect(200)).body.items.find((p: { id: string }) => p.id === id);
    assert.match(listed.image_url, /\?exp=\d+&sig=/);
    await raw(t.http.get(mine.content.blocks[0].data.file.url)).expect(200);
    const stored = await t.app.eventStore.readStream(streams.blogPost(id));
    assert.ok(!JSON.stringify(stored).includes('sig='), 'no grant reaches the log');

    // Another doctor cannot open it by publishing a post that names it.
    const borrowed = await create(otherDoctor, { title: 'Borrowed', content: content({ type: 'image', data: { file: { url: bare } } }) });
    await t.http.post(`/api/v1/blogs/${borrowed}/publish`).set(otherDoctor.auth).expect(200);
    await t.settle();
    await t.http.get(bare).expect(404);

    // Published: anyone, at the stable bare address, cached publicly.
    const slug = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200)).body.slug;
    await t.settle();
    const shown = (await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200)).body;
    assert.equal(shown.content.blocks[0].data.file.url, bare);
    assert.equal(shown.image_url, bare);
    const pub = await raw(t.http.get(bare)).expect(200);
    assert.deepEqual(await pixelsOf(pub.body as Buffer), await pixelsOf(PNG), 'the picture uploaded');
    // Kept by caches only while they ask again: a 304 without the bytes while it is shown.
    assert.equal(pub.headers['cache-control'], 'public, no-cache');
    const etag = pub.headers.etag;
    assert.match(etag ?? '', /^"[\w-]+"$/);
    const again = await t.http.get(bare).set('If-None-Match', etag!).expect(304);
    assert.equal(again.headers.etag, etag);
    assert.equal(again.headers['cache-control'], 'public, no-cache');
    assert.equal(again.text ?? '', '');
    await raw(t.http.get(bare).set('If-None-Match', '"another"')).expect(200);
    await t.http.get(bare).set(otherDoctor.auth).expect(200);

    // Archived: the author's alone again, at once: a cache asking again with its ETag is told 404, not 304.
    await t.http.post(`/api/v1/blogs/${id}/archive`).set(doctor.auth).expect(200);
    await t.settle();
    const gone = await t.http.get(bare).set('If-None-Match', etag!).expect(404);
    assert.notEqual(gone.headers.etag, etag);
    await t.http.get(bare).expect(404);
    await t.http.get(bare).set(patient.auth).expect(404);
    await t.http.get(granted).expect(200);
    const was = now;
    now = new Date(now.getTime() + 3 * 3600 * 1000);
    try {
      await t.http.get(granted).expect(404);
    } finally {
      now = was;
    }

    // Published again, then deleted: gone for caches at once too.
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200);
    await t.settle();
    await t.http.get(bare).set('If-None-Match', etag!).expect(304);
    await t.http.delete(`/api/v1/blogs/${id}?confirm=true`).set(doctor.auth).expect(200);
    await t.settle();
    await t.http.get(bare).set('If-None-Match', etag!).expect(404);
  });

  it('the author gets a fresh grant for their own picture (an editor open for hours); no one else does', async () => {
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'draft.png' }).expect(201);
    const granted = up.body.file.url as string;
    const imageId = granted.split('?')[0]!.split('/').pop()!;
    await t.settle();
    const was = now;
    // Two hours later the editor's address no longer opens the picture; a fresh grant does.
    now = new Date(now.getTime() + 2 * 3600 * 1000);
    try {
      await t.http.get(granted).expect(404);
      const fresh = await t.http.get(`/api/v1/blogs/images/${imageId}/grant`).set(doctor.auth).expect(200);
      assert.equal(fresh.headers['cache-control'], 'private, no-store');
      assert.match(fresh.body.url, new RegExp(`^/api/v1/blogs/images/${imageId}\\?exp=\\d+&sig=[\\w-]{43}$`));
      assert.ok(Date.parse(fresh.body.expires_at) > now.getTime() + 50 * 60 * 1000, 'lasts about an hour from now');
      await t.http.get(fresh.body.url).expect(200);
      // Another doctor, a patient, no one: as if there were no such picture.
      await t.http.get(`/api/v1/blogs/images/${imageId}/grant`).set(otherDoctor.auth).expect(404);
      await t.http.get(`/api/v1/blogs/images/${imageId}/grant`).set(patient.auth).expect(403);
      await t.http.get(`/api/v1/blogs/images/${imageId}/grant`).expect(401);
      await t.http.get('/api/v1/blogs/images/0000000000000000/grant').set(doctor.auth).expect(404);
      const bad = await t.http.get('/api/v1/blogs/images/..%2F..%2Fx/grant').set(doctor.auth);
      assert.ok(bad.status === 404 || bad.status === 422, `bad id answered ${bad.status}`);
    } finally {
      now = was;
    }
  });

  it("keeps an image's width from the resize cycle (25%, 50%, 75%, 100%, auto) and refuses any other", async () => {
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'a.png' }).expect(201);
    const image = (width?: unknown) => ({ type: 'image', data: { file: { url: up.body.file.url }, caption: 'A <b>chart</b><img src=x onerror=alert(1)>', ...(width === undefined ? {} : { width }) } });
    const id = await create(doctor, { title: 'Sizes', content: content(image('50%'), image('100%'), image()) });
    const slug = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200)).body.slug;
    await t.settle();
    const blocks = (await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200)).body.content.blocks as Array<{ data: { width: string; caption: string } }>;
    assert.deepEqual(blocks.map((b) => b.data.width), ['50%', '100%', 'auto'], 'kept through the sanitizer; auto when not chosen');
    assert.equal(blocks[0]!.data.caption, 'A <b>chart</b>');
    for (const width of ['60%', '1px;position:fixed', 50]) {
      const res = await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title: 'Bad size', content: content(image(width)) }).expect(422);
      assert.ok(Array.isArray(res.body.detail) && res.body.detail.some((d: { loc: unknown[] }) => d.loc.includes('width')), JSON.stringify(res.body));
    }
  });

  it('link previews never fetch outside sites; topic ideas say they are bundled', async () => {
    const meta = await t.http.get('/api/v1/blogs/link-meta').query({ url: 'https://www.who.int/news' }).set(doctor.auth).expect(200);
    assert.deepEqual(meta.body, { success: 1, link: 'https://www.who.int/news', meta: { title: 'www.who.int', description: '' } });
    await t.http.get('/api/v1/blogs/link-meta').query({ url: 'javascript:alert(1)' }).set(doctor.auth).expect(422);
    const ideas = await t.http.get('/api/v1/blogs/topic-ideas').set(doctor.auth).expect(200);
    assert.equal(ideas.body.source, 'bundled');
    assert.equal(ideas.body.notice, BLOG_TEXTS.bundledIdeasNotice);
    assert.equal(ideas.body.ideas.length, 3);
  });

  it("a doctor's public posts of an id that is no doctor's: 404 with a detail", async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', patient.user_id]) {
      const res = await t.http.get(`/api/v1/public/doctors/${id}/blogs`).expect(404);
      assert.equal(res.body.detail, 'Doctor not found', 'says what was not found');
    }
    const fresh = await t.createUser('doctor');
    await t.settle();
    assert.deepEqual((await t.http.get(`/api/v1/public/doctors/${fresh.user_id}/blogs`).expect(200)).body, [], 'a doctor without posts has an empty list');
  });

  it('a deactivated or erased doctor has no public posts', async () => {
    const author = await t.createUser('doctor');
    const id = await create(author, post('Leaving soon'));
    const slug = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200)).body.slug;
    await t.settle();
    await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200);
    await t.http.get('/api/v1/public/blogs/no-such-post-00000000').expect(404);
    const admin = await t.createUser('admin');
    await t.http.delete(`/api/v1/admin/users/${author.user_id}`).set(admin.auth).expect(200);
    await t.settle();
    await t.http.get(`/api/v1/public/blogs/${slug}`).expect(404);
    assert.deepEqual((await t.http.get(`/api/v1/public/doctors/${author.user_id}/blogs`).expect(200)).body, []);
    assert.ok(!(await t.http.get('/sitemap.xml').expect(200)).text.includes(slug), "a deactivated doctor's posts leave the sitemap");

    const erased = await t.createUser('doctor');
    const other = await create(erased, post('Erased later'));
    const erasedSlug = (await t.http.post(`/api/v1/blogs/${other}/publish`).set(erased.auth).expect(200)).body.slug;
    await t.http.post('/api/v1/users/me/erasure').set(erased.auth).expect(200);
    await t.settle();
    await t.http.get(`/api/v1/public/blogs/${erasedSlug}`).expect(404);
  });
});

describe('views of public posts from one address (issue 16)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { BLOG_VIEWS_PER_ADDRESS_PER_HOUR: '3' } });
  });
  after(() => t.close());

  it('are counted up to the address budget; past it nothing is written to the log, and signed-in readers still count', async () => {
    const author = await t.createUser('doctor');
    const reader = await t.createUser('patient');
    const created = await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Monsoon fevers')).expect(201);
    const id = created.body.id as string;
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200);
    const spec = apiSpec(t);
    const view = (session: string, who?: TestUser) =>
      spec.when((http) => {
        const req = http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: session });
        return who ? req.set(who.auth) : req;
      });
    const counted = (then: Then) => (then.expectStatus(200).body as { counted: boolean }).counted;
    const within = [];
    for (let i = 0; i < 3; i += 1) within.push(counted((await view(`session-${String(i).repeat(16)}`)).expectEvents([{ type: 'BlogPostViewed' }])));
    assert.deepEqual(within, [true, true, true]);
    // No event for those past it.
    for (let i = 3; i < 10; i += 1) assert.equal(counted((await view(`session-${String(i).repeat(16)}`)).expectNoEvents()), false, 'made-up sessions past the budget');
    const signedIn = (await view('session-zzzzzzzzzzzzzzzz', reader)).expectEvents([{ type: 'BlogPostViewed' }]);
    assert.equal(counted(signedIn), true, 'an account is one reader, whatever its address');
  });
});

describe('blog picture uploads under way', () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    port = await freePort();
    t = await startTestApp({ env: { PORT: String(port) } });
    await t.app.listen(port, '127.0.0.1');
  });
  after(() => t.close());

  it(`one doctor has at most ${BLOG_LIMITS.imagesInFlight} under way: trickling uploads cannot hold connections and files without bound (429, then room again)`, async () => {
    const uploader = await t.createUser('doctor');
    const other = await t.createUser('doctor');
    const images = '/api/v1/blogs/images';
    // A JSON body passes the bound first and is then refused as not multipart: a probe of the bound that stores nothing.
    const probe = async () => (await t.http.post(images).set(uploader.auth).send({ image: 'x' })).status;
    const until = async (wanted: (status: number) => boolean) => {
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 20))) if (wanted(await probe())) return;
      assert.fail('the bound never answered as expected');
    };
    const slow: Socket[] = [];
    for (let i = 0; i < BLOG_LIMITS.imagesInFlight; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const head = `--B0\r\nContent-Disposition: form-data; name="image"; filename="slow${i}.png"\r\nContent-Type: image/png\r\n\r\n`;
      socket.write(`POST ${images} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${uploader.token}\r\nContent-Type: multipart/form-data; boundary=B0\r\nContent-Length: 4000000\r\n\r\n${head}`);
      socket.write(PNG.subarray(0, 16));
      slow.push(socket);
    }
    await until((status) => status === 429);
    const refused = await t.http.post(images).set(uploader.auth).attach('image', PNG, { filename: 'a.png' });
    assert.deepEqual([refused.status, refused.body.detail, refused.headers['retry-after']], [429, BLOG_TEXTS.imagesInFlight, '5']);
    await t.http.post(images).set(other.auth).attach('image', PNG, { filename: 'a.png' }).expect(201);
    for (const socket of slow) socket.destroy();
    await until((status) => status !== 429);
    await t.http.post(images).set(uploader.auth).attach('image', PNG, { filename: 'a.png' }).expect(201);
  });
});
