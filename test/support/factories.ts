import { randomBytes, randomUUID } from 'node:crypto';
import type request from 'supertest';
import type { TestApp } from './app';

export const uniq = (tag = 'x') => `${tag}-${randomBytes(4).toString('hex')}`;
const letters = () => Array.from(randomBytes(4), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[b % 24]).join('');

export interface TestUser {
  http: request.Agent;
  email: string;
  password: string;
  name: string;
  userId: string;
}

/** A signed-up human with a session cookie kept by the returned agent. */
export async function newUser(t: TestApp, tag = 'user'): Promise<TestUser> {
  const http = t.http();
  const email = `${uniq(tag)}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const name = `${tag} ${randomBytes(2).toString('hex')}`;
  const res = await http.post('/api/auth/signup').send({ email, password, display_name: name }).expect(201);
  return { http, email, password, name, userId: res.body.user.id };
}

export interface TestOrg {
  id: string;
  owner: TestUser;
  ownerMemberId: string;
  prefix: string;
}

export async function newOrg(t: TestApp, owner?: TestUser): Promise<TestOrg> {
  owner ??= await newUser(t, 'owner');
  const prefix = `Q${letters()}`;
  const res = await owner.http
    .post('/api/orgs')
    .send({ name: uniq('Org'), issue_prefix: prefix })
    .expect(201);
  const id = res.body.organization.id;
  const prof = await owner.http.get(`/api/orgs/${id}/profile`).expect(200);
  return { id, owner, ownerMemberId: prof.body.member.id, prefix };
}

/** Adds `user` as the invitee would join: the owner invites its email, `user` accepts (over HTTP); returns the member id. */
export async function addMember(t: TestApp, org: TestOrg, user: TestUser, role: 'admin' | 'member' | 'guest'): Promise<string> {
  const inv = await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: user.email, role }).expect(201);
  const res = await user.http.post(`/api/invitations/${inv.body.invitation.id}/accept`).expect(200);
  return res.body.member.id;
}

export async function newProject(t: TestApp, org: TestOrg, name = uniq('Proj'), key = `P${letters()}`): Promise<{ id: string; key: string; name: string }> {
  const res = await org.owner.http.post(`/api/orgs/${org.id}/projects`).send({ name, key }).expect(201);
  return res.body.project;
}

export interface TestAgent {
  id: string;
  memberId: string;
  key: string;
  keyId: string;
  http: () => request.Test;
}

/** Creates an agent through the API; `bearer(t, key)` builds requests with its key. */
export async function newAgent(
  t: TestApp,
  org: TestOrg,
  body: Record<string, unknown>,
): Promise<{ id: string; memberId: string; key: string; keyId: string; body: any }> {
  const res = await org.owner.http
    .post(`/api/orgs/${org.id}/agents`)
    .send({ name: uniq('Agent'), ...body })
    .expect(201);
  return { id: res.body.agent.id, memberId: res.body.agent.member_id ?? res.body.agent.id, key: res.body.apiKey, keyId: res.body.apiKeyId, body: res.body };
}

/** Request helpers authenticated with a bearer key. */
export function bearer(t: TestApp, key: string) {
  const h = t.http();
  const auth = (r: request.Test) => r.set('authorization', `Bearer ${key}`);
  return {
    get: (p: string) => auth(h.get(p)),
    post: (p: string) => auth(h.post(p)),
    patch: (p: string) => auth(h.patch(p)),
    put: (p: string) => auth(h.put(p)),
    delete: (p: string) => auth(h.delete(p)),
  };
}

export const randomId = () => randomUUID();
