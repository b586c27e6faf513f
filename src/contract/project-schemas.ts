import Type from 'typebox';

const LogicalId = Type.String({ minLength: 1, maxLength: 1024 });

/** The body `checkly deploy` posts (`projectBundle.synthesize()` plus `repoInfo`, ignored, and `sharedFiles`: the project files checks' `dependencies` name by index). */
export const ProjectDeployBody = Type.Object(
  {
    project: Type.Object(
      { logicalId: LogicalId, name: Type.String({ minLength: 1, maxLength: 2048 }), repoUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])) },
      { additionalProperties: true },
    ),
    resources: Type.Array(
      Type.Object(
        {
          logicalId: LogicalId, type: Type.String({ minLength: 1, maxLength: 256 }), member: Type.Optional(Type.Boolean()),
          physicalId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Integer(), Type.Null()])), payload: Type.Unknown(),
        },
        { additionalProperties: true },
      ),
      { maxItems: 5000 },
    ),
  },
  { additionalProperties: true },
);

export const ProjectDeployQuery = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ default: false })),
    scheduleOnDeploy: Type.Optional(Type.Boolean({ default: true })),
    preserveResources: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const ProjectDestroyQuery = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ default: false })),
    preserveResources: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const ProjectParams = Type.Object({ logicalId: LogicalId });
export const DeploymentParams = Type.Object({ logicalId: LogicalId, deploymentId: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeploymentCompletionQuery = Type.Object(
  { maxWaitSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 60 })) },
  { additionalProperties: false },
);
