package demo;

import java.security.Principal;
import java.util.Map;

import org.springframework.web.bind.annotation.CrossOrigin;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@CrossOrigin(origins = "https://app.example")
class OrdersController {

	@GetMapping("/orders")
	Map<String, Object> orders(Principal principal) {
		return Map.of("owner", principal.getName(), "orders", 0);
	}

}
