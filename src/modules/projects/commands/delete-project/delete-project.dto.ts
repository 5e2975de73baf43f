import { IsOptional, IsString } from 'class-validator';

export class DeleteProjectDto {
  /** Must be exactly `DELETE`: the project and everything in it (issues included) are removed permanently */
  @IsOptional()
  @IsString()
  confirmation?: string;
}
