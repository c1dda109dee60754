/** A route's method and path (relative to /api/v1). */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RoutePath {
  readonly method: HttpMethod;
  readonly path: string;
}
