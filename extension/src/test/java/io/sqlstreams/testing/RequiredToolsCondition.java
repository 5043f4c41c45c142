package io.sqlstreams.testing;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Decides a {@link RequiresTools} class once, before anything of it runs: enabled when every program is there,
 * otherwise skipped with the reason printed too, or failed when {@value OptionalTool#REQUIRED_VARIABLE} is true.
 */
final class RequiredToolsCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            return ConditionEvaluationResult.enabled("its class has every program it needs");
        }
        OptionalTool[] tools = context.getTestClass()
                .flatMap(type -> AnnotationSupport.findAnnotation(type, RequiresTools.class))
                .map(RequiresTools::value).orElse(new OptionalTool[0]);
        String missing = Arrays.stream(tools).filter(tool -> !tool.isInstalled()).map(OptionalTool::absence)
                .collect(Collectors.joining("; "));
        if (missing.isEmpty()) {
            return ConditionEvaluationResult.enabled("every program it needs is installed");
        }
        String test = context.getRequiredTestClass().getSimpleName();
        if (OptionalTool.required()) {
            throw new IllegalStateException(test + " must run (" + OptionalTool.REQUIRED_VARIABLE + "=true), but "
                    + missing);
        }
        String reason = "skipped " + test + ": " + missing;
        System.out.println("[sqlstreams-test] " + reason);
        return ConditionEvaluationResult.disabled(reason);
    }
}
