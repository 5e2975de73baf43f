import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { HeartbeatService } from '../../heartbeat.service';
import { AckHeartbeatCommand } from './ack-heartbeat.command';

@CommandHandler(AckHeartbeatCommand)
export class AckHeartbeatHandler implements ICommandHandler<AckHeartbeatCommand, Record<string, unknown>> {
  constructor(private readonly heartbeat: HeartbeatService) {}

  execute({ actor, body }: AckHeartbeatCommand): Promise<Record<string, unknown>> {
    return this.heartbeat.acknowledge(actor, body);
  }
}
