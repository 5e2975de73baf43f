import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AppConfig } from './config/config';
import { GlobalAuthGuard } from './common/auth/auth.guard';
import { InfrastructureModule } from './infrastructure.module';
import { FEATURE_MODULES } from './modules/feature-modules';

/** Root module of the API process. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config, 'api'), ...FEATURE_MODULES],
      providers: [{ provide: APP_GUARD, useClass: GlobalAuthGuard }],
    };
  }
}
