import { AddProjectMemberDto } from '../add-project-member/add-project-member.dto';

/** Same fields as adding an entry; here `accessLevel` (or `access_level`) is required (checked by the handler). */
export class UpdateProjectMemberDto extends AddProjectMemberDto {}
