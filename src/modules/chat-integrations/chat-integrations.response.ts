/** `{ ok: true }` */
export class ChatDisconnected {
  ok: true;
}
