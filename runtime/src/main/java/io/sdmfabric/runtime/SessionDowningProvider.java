package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.DowningProvider;
import scala.Option;
import scala.concurrent.duration.FiniteDuration;

/**
 * Pekko's hook for sdm's own downing ({@code pekko.cluster.downing-provider-class}): a {@link
 * SessionDowning} actor on every member, with the times of {@code sdm.downing} in the settings
 * ({@link ClusterSettings}). Pekko makes one per actor system, by reflection.
 */
public final class SessionDowningProvider extends DowningProvider {
  private final DowningRule rule;

  /** The provider of {@code system}, as Pekko constructs it. */
  public SessionDowningProvider(ActorSystem system) {
    Config downing = system.settings().config().getConfig("sdm.downing");
    this.rule =
        new DowningRule(
            downing.getDuration("stable-after"), downing.getDuration("master-lost-after"));
  }

  @Override
  public FiniteDuration downRemovalMargin() {
    return FiniteDuration.apply(0, TimeUnit.SECONDS); // no sharding or singletons to hand over
  }

  @Override
  public Option<Props> downingActorProps() {
    return Option.apply(Adapter.props(() -> SessionDowning.create(rule)));
  }
}
