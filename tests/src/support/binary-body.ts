/** The response as supertest hands it to a parser: a stream of the body's chunks. */
interface BodyStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** A supertest `.parse` that keeps the response body as its bytes (a file, a PDF, a zip): `.buffer(true).parse(binaryBody)`. */
export function binaryBody(res: BodyStream, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
