import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_TEXTS } from './texts';
import { BLOG_TEXTS } from './blog-constants';
import { RECORD_TEXTS } from './record-constants';
import { errorBody, errorCode } from './error-codes';

describe('error codes', () => {
  it("names a catalogue's text by its key, in snake_case", () => {
    assert.equal(errorCode(410, RECORD_TEXTS.fileErased), 'file_erased');
    assert.equal(errorCode(404, API_TEXTS.doctorNotFound), 'doctor_not_found');
  });

  it('recognises a text with values in it by its fixed parts', () => {
    assert.equal(errorCode(422, BLOG_TEXTS.blockNotAllowed('raw')), 'block_not_allowed');
    assert.equal(errorCode(405, API_TEXTS.methodNotAllowed('PATCH', 'GET, POST')), 'method_not_allowed');
  });

  it('gives the values of a text with holes, in order, so that a screen can translate it', () => {
    assert.deepEqual(errorBody(405, API_TEXTS.methodNotAllowed('PATCH', 'GET, POST')), {
      detail: API_TEXTS.methodNotAllowed('PATCH', 'GET, POST'),
      code: 'method_not_allowed',
      values: ['PATCH', 'GET, POST'],
    });
    assert.deepEqual(errorBody(404, API_TEXTS.doctorNotFound), { detail: API_TEXTS.doctorNotFound, code: 'doctor_not_found' });
  });

  it("falls back to the status's code for a text of no catalogue, and for validation issues", () => {
    assert.equal(errorCode(404, 'Something else'), 'not_found');
    assert.equal(errorCode(429, 'Slow down'), 'too_many_requests');
    assert.deepEqual(errorBody(422, [{ loc: ['body', 'x'], msg: 'Field required', type: 'invalid_type' }]).code, 'validation_failed');
    assert.equal(errorCode(418, 'teapot'), 'bad_request');
    assert.equal(errorCode(502, 'upstream'), 'internal_error');
  });
});
