export class GetAvatarQuery {
  constructor(
    readonly orgId: string,
    readonly objectId: string,
  ) {}
}
