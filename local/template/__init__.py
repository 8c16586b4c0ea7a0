"""template.yaml → resources on moto: the SAM template translated, each resource created as AWS would."""
